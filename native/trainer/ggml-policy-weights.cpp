#include "ggml-policy-weights.h"

#include <cstdio>
#include <cstring>
#include <memory>
#include <stdexcept>

#include "../devices/ggml-devices.h"

namespace {

struct GgufFile {
  const GgmlLibrary& ggml;
  gguf_context* gguf = nullptr;
  ggml_context* metadata = nullptr;
  ~GgufFile() {
    if (gguf != nullptr) ggml.gguf_free(gguf);
    if (metadata != nullptr) ggml.ggml_free(metadata);
  }
};

// Types ggml's CPU mul_mat and get_rows take as the weight side; norms and biases must be f32.
bool isMatrixType(ggml_type type) {
  switch (type) {
    case GGML_TYPE_F32: case GGML_TYPE_F16: case GGML_TYPE_BF16:
    case GGML_TYPE_Q4_0: case GGML_TYPE_Q4_1: case GGML_TYPE_Q5_0: case GGML_TYPE_Q5_1: case GGML_TYPE_Q8_0:
    case GGML_TYPE_Q2_K: case GGML_TYPE_Q3_K: case GGML_TYPE_Q4_K: case GGML_TYPE_Q5_K: case GGML_TYPE_Q6_K:
      return true;
    default:
      return false;
  }
}

/** A block type: ggml's CPU products quantise their input (the vec_dot type) before multiplying by it. */
bool isQuantised(ggml_type type) { return type != GGML_TYPE_F32 && type != GGML_TYPE_F16 && type != GGML_TYPE_BF16; }

/** Where a matrix goes: the buffer types ggml's CPU device offers beside its plain one (CPU_REPACK, AMX …), as llama.cpp chooses them. */
class ExtraBufferTypes {
 public:
  ExtraBufferTypes(const GgmlLibrary& ggml, ggml_backend_t backend) : ggml(ggml), device(ggml.ggml_backend_get_device(backend)) {
    if (device == nullptr) return;
    auto list = reinterpret_cast<ggml_backend_dev_get_extra_bufts_t>(
        ggml.ggml_backend_reg_get_proc_address(ggml.ggml_backend_dev_backend_reg(device), "ggml_backend_dev_get_extra_bufts"));
    if (list == nullptr) return;
    for (ggml_backend_buffer_type_t* type = list(device); type != nullptr && *type != nullptr; type++) types.push_back(*type);
  }

  /**
   * The first extra buffer type whose kernels take `matrix` as the weight of a matrix product, or null
   * for the plain buffer: llama.cpp's own test (weight_buft_supported), so the trainer's forward product
   * runs the kernel the engine's does.
   */
  ggml_backend_buffer_type_t forMatrixProduct(const ggml_tensor* matrix) const {
    if (types.empty()) return nullptr;
    ggml_init_params parameters{ggml.ggml_tensor_overhead() * 4, nullptr, true};
    ggml_context* context = ggml.ggml_init(parameters);
    if (context == nullptr) throw std::runtime_error("ggml_init failed for a buffer type probe");
    ggml_tensor* weight = ggml.ggml_dup_tensor(context, matrix);
    ggml_tensor* product = ggml.ggml_mul_mat(context, weight, ggml.ggml_new_tensor_2d(context, GGML_TYPE_F32, matrix->ne[0], 512));
    ggml_backend_buffer_type_t chosen = nullptr;
    for (ggml_backend_buffer_type_t type : types) {
      weight->buffer = ggml.ggml_backend_buft_alloc_buffer(type, 0);
      const bool supported = weight->buffer != nullptr && ggml.ggml_backend_dev_supports_op(device, product);
      if (weight->buffer != nullptr) ggml.ggml_backend_buffer_free(weight->buffer);
      weight->buffer = nullptr;
      if (supported) {
        chosen = type;
        break;
      }
    }
    ggml.ggml_free(context);
    return chosen;
  }

 private:
  const GgmlLibrary& ggml;
  ggml_backend_dev_t device;
  std::vector<ggml_backend_buffer_type_t> types;
};

class TensorPicker {
 public:
  TensorPicker(const GgmlLibrary& ggml, const GgmlPolicyConfiguration& configuration, ggml_context* metadata, GgmlPolicyWeights& weights,
               const ExtraBufferTypes& extraTypes, size_t tensorCount, bool onCpu)
      : ggml(ggml), configuration(configuration), metadata(metadata), weights(weights), extraTypes(extraTypes), tensorCount(tensorCount), onCpu(onCpu) {}

  /**
   * The tensor `name` of shape [dim0, dim1] (dim1 = 1 for vectors), copied into the weights' contexts;
   * null when optional and absent. `multiplied`: the weight of a matrix product, placed in the buffer
   * type the engine would give it; `tiedOutput`: the embedding when it is the output matrix too (its row
   * lookup needs the plain buffer; llama.cpp multiplies by a duplicate in the output's buffer type, TENSOR_DUPLICATED,
   * which on an AMX CPU is the AMX buffer type: the product then reads such a copy here too).
   */
  ggml_tensor* pick(const std::string& name, int64_t dim0, int64_t dim1, bool required, bool multiplied = false, bool tiedOutput = false) {
    ggml_tensor* found = ggml.ggml_get_tensor(metadata, name.c_str());
    if (found == nullptr) {
      if (required) throw std::invalid_argument(configuration.modelPath + " has no tensor " + name + "; the trainer computes llama and qwen2 models as llama.cpp lays them out");
      return nullptr;
    }
    const bool vector = dim1 == 1;
    if (found->ne[0] != dim0 || found->ne[1] != dim1 || found->ne[2] != 1 || found->ne[3] != 1) {
      throw std::invalid_argument(configuration.modelPath + ": " + name + " is [" + std::to_string(found->ne[0]) + ", " + std::to_string(found->ne[1]) +
                                  ", " + std::to_string(found->ne[2]) + "], the metadata implies [" + std::to_string(dim0) +
                                  (vector ? "" : ", " + std::to_string(dim1)) + "]; the file is inconsistent");
    }
    const bool fullTraining = configuration.trainable && configuration.loraPath.empty();
    const bool typeOk = fullTraining || vector ? found->type == GGML_TYPE_F32 : isMatrixType(found->type);
    if (!typeOk) {
      throw std::invalid_argument(configuration.modelPath + ": " + name + " is " + ggml.ggml_type_name(found->type) +
                                  (fullTraining ? "; full-weight training needs an f32 model: train a LoRA over it instead (weights: \"lora\"), or convert the file to f32"
                                                : "; the trainer reads f32 norms and biases and f32, f16, bf16, q4_0–q8_0 or k-quant matrices"));
    }
    ggml_backend_buffer_type_t extra = onCpu && !vector && (multiplied || tiedOutput) && !fullTraining ? extraTypes.forMatrixProduct(found) : nullptr;
    // ggml's CPU out_prod (the backward of a matrix product towards its input) cannot read f16 or bf16,
    // nor a matrix in an extra buffer type: a LoRA trained over such a base backpropagates through an f32
    // (or plain) copy, and the forward product keeps reading the matrix as the engine holds it.
    const bool convert = onCpu && configuration.trainable && !vector && (found->type == GGML_TYPE_F16 || found->type == GGML_TYPE_BF16);
    const bool twin = convert || (extra != nullptr && (configuration.trainable || tiedOutput));
    ggml_context* home = twin || extra == nullptr ? weights.context : extraContext(extra, name);
    ggml_tensor* tensor = convert ? ggml.ggml_new_tensor_2d(home, GGML_TYPE_F32, found->ne[0], found->ne[1]) : ggml.ggml_dup_tensor(home, found);
    ggml.ggml_set_name(tensor, name.c_str());
    all.push_back(tensor);
    storedTypes.push_back(found->type);
    if (twin && (extra != nullptr || multiplied || tiedOutput)) {
      ggml_tensor* copy = ggml.ggml_dup_tensor(extra != nullptr ? extraContext(extra, name) : twinContext(), found);
      ggml.ggml_set_name(copy, name.c_str());
      weights.forwardCopies.emplace(tensor, copy);
      twins.push_back(copy);
    }
    if (!onCpu && configuration.trainable && !fullTraining && !vector && (multiplied || tiedOutput)) {
      ggml_tensor* transposed = ggml.ggml_new_tensor_2d(transposedContext(), GGML_TYPE_F32, found->ne[1], found->ne[0]);
      ggml.ggml_set_name(transposed, (name + ".T").c_str());
      weights.transposedCopies.emplace(tensor, transposed);
      transposedSources.push_back(found);
      transposedCopies.push_back(transposed);
    }
    return tensor;
  }

  std::vector<ggml_tensor*> all;
  /** The file's type of each tensor in `all` (f16/bf16 ones converted to f32 on load). */
  std::vector<ggml_type> storedTypes;
  /** Forward copies, each of the file's type. */
  std::vector<ggml_tensor*> twins;
  /** The buffer type of each of weights.extraContexts. */
  std::vector<ggml_backend_buffer_type_t> extraTypesUsed;
  /** The file's matrices (metadata tensors) that have transposed f32 copies, and those copies, in the same order. */
  std::vector<const ggml_tensor*> transposedSources;
  std::vector<ggml_tensor*> transposedCopies;

 private:
  ggml_context* newContext() {
    ggml_init_params parameters{ggml.ggml_tensor_overhead() * tensorCount, nullptr, true};
    ggml_context* context = ggml.ggml_init(parameters);
    if (context == nullptr) throw std::runtime_error("ggml_init failed for the weights' context");
    return context;
  }

  ggml_context* extraContext(ggml_backend_buffer_type_t type, const std::string& name) {
    weights.extraPlacements.emplace_back(name, ggml.ggml_backend_buft_name(type));
    for (size_t index = 0; index < extraTypesUsed.size(); index++) {
      if (extraTypesUsed[index] == type) return weights.extraContexts[index];
    }
    weights.extraContexts.push_back(newContext());
    extraTypesUsed.push_back(type);
    return weights.extraContexts.back();
  }

  ggml_context* twinContext() {
    if (weights.twinContext == nullptr) weights.twinContext = newContext();
    return weights.twinContext;
  }

  ggml_context* transposedContext() {
    if (weights.transposedContext == nullptr) weights.transposedContext = newContext();
    return weights.transposedContext;
  }

  const GgmlLibrary& ggml;
  const GgmlPolicyConfiguration& configuration;
  ggml_context* metadata;
  GgmlPolicyWeights& weights;
  const ExtraBufferTypes& extraTypes;
  size_t tensorCount;
  /** Whether the backend is ggml's CPU device: extra buffer types and f32 twins there, transposed copies elsewhere. */
  bool onCpu;
};

/** Reads each tensor's bytes from `stream`; a tensor whose stored type differs from its own (f16/bf16 → f32) is converted. */
void readTensorData(const GgmlLibrary& ggml, gguf_context* gguf, ggml_context* metadata, FILE* stream, const std::string& path,
                    const std::vector<ggml_tensor*>& tensors, const std::vector<ggml_type>& storedTypes) {
  std::vector<uint8_t> bytes;
  std::vector<float> converted;
  const size_t dataOffset = ggml.gguf_get_data_offset(gguf);
  for (size_t position = 0; position < tensors.size(); position++) {
    ggml_tensor* tensor = tensors[position];
    const int64_t index = ggml.gguf_find_tensor(gguf, tensor->name);
    const size_t size = ggml.ggml_nbytes(ggml.ggml_get_tensor(metadata, tensor->name));
    bytes.resize(size);
    if (index < 0 || std::fseek(stream, static_cast<long>(dataOffset + ggml.gguf_get_tensor_offset(gguf, index)), SEEK_SET) != 0 ||
        std::fread(bytes.data(), 1, size, stream) != size) {
      throw std::invalid_argument(path + " is truncated: cannot read " + tensor->name);
    }
    if (storedTypes[position] == tensor->type) {
      ggml.ggml_backend_tensor_set(tensor, bytes.data(), 0, size);
      continue;
    }
    converted.resize(static_cast<size_t>(ggml.ggml_nelements(tensor)));
    ggml.ggml_get_type_traits(storedTypes[position])->to_float(bytes.data(), converted.data(), ggml.ggml_nelements(tensor));
    ggml.ggml_backend_tensor_set(tensor, converted.data(), 0, converted.size() * sizeof(float));
  }
}

/** Each matrix's values from `stream`, dequantised to f32 and transposed ([in, out] → [out, in]), into its copy. */
void readTransposedCopies(const GgmlLibrary& ggml, gguf_context* gguf, FILE* stream, const std::string& path,
                          const std::vector<const ggml_tensor*>& sources, const std::vector<ggml_tensor*>& copies) {
  std::vector<uint8_t> bytes;
  std::vector<float> values;
  std::vector<float> transposed;
  const size_t dataOffset = ggml.gguf_get_data_offset(gguf);
  for (size_t position = 0; position < sources.size(); position++) {
    const ggml_tensor* source = sources[position];
    const int64_t index = ggml.gguf_find_tensor(gguf, source->name);
    const size_t size = ggml.ggml_nbytes(source);
    bytes.resize(size);
    if (index < 0 || std::fseek(stream, static_cast<long>(dataOffset + ggml.gguf_get_tensor_offset(gguf, index)), SEEK_SET) != 0 ||
        std::fread(bytes.data(), 1, size, stream) != size) {
      throw std::invalid_argument(path + " is truncated: cannot read " + source->name);
    }
    const int64_t rows = source->ne[1], columns = source->ne[0];
    values.resize(static_cast<size_t>(rows * columns));
    if (source->type == GGML_TYPE_F32) {
      std::memcpy(values.data(), bytes.data(), size);
    } else {
      ggml.ggml_get_type_traits(source->type)->to_float(bytes.data(), values.data(), rows * columns);
    }
    transposed.resize(values.size());
    for (int64_t row = 0; row < rows; row++) {
      for (int64_t column = 0; column < columns; column++) transposed[static_cast<size_t>(column * rows + row)] = values[static_cast<size_t>(row * columns + column)];
    }
    ggml.ggml_backend_tensor_set(copies[position], transposed.data(), 0, transposed.size() * sizeof(float));
  }
}

/** The adapter's f32 factor pairs, checked against the base matrices they adapt, in a buffer of their own. */
void loadAdapter(const GgmlLibrary& ggml, const GgmlPolicyConfiguration& c, GgmlPolicyWeights& weights, ggml_backend_t backend) {
  GgufFile file{ggml};
  gguf_init_params parameters{true, &file.metadata};
  file.gguf = ggml.gguf_init_from_file(c.loraPath.c_str(), parameters);
  if (file.gguf == nullptr) throw std::invalid_argument("ggml could not read the LoRA adapter " + c.loraPath + " as a GGUF file");
  ggml_init_params contextParameters{ggml.ggml_tensor_overhead() * (2 * weights.all.size() + 2), nullptr, true};
  weights.adapterContext = ggml.ggml_init(contextParameters);
  if (weights.adapterContext == nullptr) throw std::runtime_error("ggml_init failed for the adapter's context");
  std::vector<ggml_tensor*> factors;
  std::vector<ggml_tensor*> bases(weights.all);
  for (ggml_tensor* base : bases) {
    const std::string name = base->name;
    ggml_tensor* a = ggml.ggml_get_tensor(file.metadata, (name + ".lora_a").c_str());
    ggml_tensor* b = ggml.ggml_get_tensor(file.metadata, (name + ".lora_b").c_str());
    if (a == nullptr && b == nullptr) continue;
    if (a == nullptr || b == nullptr) throw std::invalid_argument(c.loraPath + ": " + name + " has only one of its lora_a/lora_b factors");
    const int64_t rank = a->ne[1];
    if (a->type != GGML_TYPE_F32 || b->type != GGML_TYPE_F32 || base->ne[2] != 1 || a->ne[0] != base->ne[0] || b->ne[0] != rank ||
        b->ne[1] != base->ne[1] || rank < 1 || a->ne[2] != 1 || b->ne[2] != 1) {
      throw std::invalid_argument(c.loraPath + ": the factors of " + name + " must be f32 [" + std::to_string(base->ne[0]) + ", r] and [r, " +
                                  std::to_string(base->ne[1]) + "]; the adapter was made for another model");
    }
    GgmlLoraPair pair{ggml.ggml_dup_tensor(weights.adapterContext, a), ggml.ggml_dup_tensor(weights.adapterContext, b)};
    ggml.ggml_set_name(pair.a, a->name);
    ggml.ggml_set_name(pair.b, b->name);
    weights.lora.emplace(base, pair);
    factors.push_back(pair.a);
    factors.push_back(pair.b);
  }
  if (factors.empty()) throw std::invalid_argument(c.loraPath + " adapts no matrix of " + c.modelPath);
  weights.adapterBuffer = ggml.ggml_backend_alloc_ctx_tensors(weights.adapterContext, backend);
  if (weights.adapterBuffer == nullptr) throw std::runtime_error("the backend could not allocate the adapter " + c.loraPath);
  std::unique_ptr<FILE, int (*)(FILE*)> stream(std::fopen(c.loraPath.c_str(), "rb"), std::fclose);
  if (!stream) throw std::invalid_argument("cannot open " + c.loraPath);
  readTensorData(ggml, file.gguf, file.metadata, stream.get(), c.loraPath, factors, std::vector<ggml_type>(factors.size(), GGML_TYPE_F32));
  for (ggml_tensor* factor : factors) {
    weights.all.push_back(factor);
    if (c.trainable) {
      ggml.ggml_set_param(factor);
      weights.trainable.push_back(factor);
    }
  }
}

}  // namespace

GgmlPolicyWeights loadGgmlPolicyWeights(const GgmlLibrary& ggml, const GgmlPolicyConfiguration& configuration, ggml_backend_t backend) {
  const auto& c = configuration;
  if (c.headCount <= 0 || c.headCountKv <= 0 || c.headCount % c.headCountKv != 0) {
    throw std::invalid_argument("headCount " + std::to_string(c.headCount) + " is not a positive multiple of headCountKv " + std::to_string(c.headCountKv));
  }
  if (c.keyLength <= 0 || c.keyLength % 2 != 0 || c.valueLength <= 0 || c.embeddingLength <= 0 || c.vocabularySize <= 0 ||
      c.feedForwardLength <= 0 || c.blockCount <= 0) {
    throw std::invalid_argument("the model's hyperparameters must be positive, and the key length even");
  }
  GgufFile file{ggml};
  gguf_init_params parameters{true, &file.metadata};
  file.gguf = ggml.gguf_init_from_file(c.modelPath.c_str(), parameters);
  if (file.gguf == nullptr) throw std::invalid_argument("ggml could not read " + c.modelPath + " as a GGUF file");

  GgmlPolicyWeights weights;
  const size_t tensorCount = 8 + 16 * static_cast<size_t>(c.blockCount);
  ggml_init_params contextParameters{ggml.ggml_tensor_overhead() * tensorCount, nullptr, true};
  weights.context = ggml.ggml_init(contextParameters);
  if (weights.context == nullptr) throw std::runtime_error("ggml_init failed for the weights' context");
  try {
    const bool onCpu = isCpuDevice(ggml, ggml.ggml_backend_get_device(backend));
    const ExtraBufferTypes extraTypes(ggml, backend);
    TensorPicker picker(ggml, c, file.metadata, weights, extraTypes, tensorCount, onCpu);
    const int64_t embedding = c.embeddingLength, queryWidth = c.headCount * c.keyLength, keyWidth = c.headCountKv * c.keyLength,
                  valueWidth = c.headCountKv * c.valueLength, outputWidth = c.headCount * c.valueLength, feedForward = c.feedForwardLength;
    const bool tied = ggml.ggml_get_tensor(file.metadata, "output.weight") == nullptr;
    weights.tokenEmbedding = picker.pick("token_embd.weight", embedding, c.vocabularySize, true, false, tied);
    weights.outputNorm = picker.pick("output_norm.weight", embedding, 1, true);
    weights.output = picker.pick("output.weight", embedding, c.vocabularySize, false, true);
    if (weights.output == nullptr) weights.output = weights.tokenEmbedding;
    weights.ropeFrequencies = picker.pick("rope_freqs.weight", c.keyLength / 2, 1, false);
    for (int64_t block = 0; block < c.blockCount; block++) {
      const std::string prefix = "blk." + std::to_string(block) + ".";
      GgmlBlockWeights b;
      b.attentionNorm = picker.pick(prefix + "attn_norm.weight", embedding, 1, true);
      b.query = picker.pick(prefix + "attn_q.weight", embedding, queryWidth, true, true);
      b.key = picker.pick(prefix + "attn_k.weight", embedding, keyWidth, true, true);
      b.value = picker.pick(prefix + "attn_v.weight", embedding, valueWidth, true, true);
      b.queryBias = picker.pick(prefix + "attn_q.bias", queryWidth, 1, false);
      b.keyBias = picker.pick(prefix + "attn_k.bias", keyWidth, 1, false);
      b.valueBias = picker.pick(prefix + "attn_v.bias", valueWidth, 1, false);
      b.attentionOutput = picker.pick(prefix + "attn_output.weight", outputWidth, embedding, true, true);
      b.feedForwardNorm = picker.pick(prefix + "ffn_norm.weight", embedding, 1, true);
      b.gate = picker.pick(prefix + "ffn_gate.weight", embedding, feedForward, true, true);
      b.up = picker.pick(prefix + "ffn_up.weight", embedding, feedForward, true, true);
      b.down = picker.pick(prefix + "ffn_down.weight", feedForward, embedding, true, true);
      weights.blocks.push_back(b);
    }
    for (const char* suffix : {"attn_q.weight", "attn_k.weight", "attn_v.weight", "attn_output.weight", "ffn_gate.weight", "ffn_up.weight", "ffn_down.weight"}) {
      for (int64_t block = 0; block < c.blockCount && !weights.engineOrderAttention; block++) {
        const std::string name = "blk." + std::to_string(block) + "." + suffix;
        weights.engineOrderAttention = isQuantised(ggml.ggml_get_tensor(file.metadata, name.c_str())->type);
      }
    }
    const ggml_tensor* output = ggml.ggml_get_tensor(file.metadata, tied ? "token_embd.weight" : "output.weight");
    if (isQuantised(output->type)) weights.engineOrderAttention = true;
    weights.all = picker.all;
    weights.buffer = ggml.ggml_backend_alloc_ctx_tensors(weights.context, backend);
    if (weights.buffer == nullptr) throw std::runtime_error("the backend could not allocate the model's weights (" + c.modelPath + ")");

    std::unique_ptr<FILE, int (*)(FILE*)> stream(std::fopen(c.modelPath.c_str(), "rb"), std::fclose);
    if (!stream) throw std::invalid_argument("cannot open " + c.modelPath);
    for (size_t index = 0; index < weights.extraContexts.size(); index++) {
      ggml_backend_buffer_t buffer = ggml.ggml_backend_alloc_ctx_tensors_from_buft(weights.extraContexts[index], picker.extraTypesUsed[index]);
      if (buffer == nullptr) throw std::runtime_error(std::string("the backend could not allocate the model's ") + ggml.ggml_backend_buft_name(picker.extraTypesUsed[index]) + " matrices");
      weights.extraBuffers.push_back(buffer);
    }
    if (weights.twinContext != nullptr) {
      weights.twinBuffer = ggml.ggml_backend_alloc_ctx_tensors(weights.twinContext, backend);
      if (weights.twinBuffer == nullptr) throw std::runtime_error("the backend could not allocate the forward copies of the model's f16/bf16 matrices");
    }
    if (weights.transposedContext != nullptr) {
      weights.transposedBuffer = ggml.ggml_backend_alloc_ctx_tensors(weights.transposedContext, backend);
      if (weights.transposedBuffer == nullptr) throw std::runtime_error("the device could not allocate the transposed f32 copies of the model's frozen matrices");
    }
    readTensorData(ggml, file.gguf, file.metadata, stream.get(), c.modelPath, weights.all, picker.storedTypes);
    std::vector<ggml_type> twinTypes;
    for (const ggml_tensor* twin : picker.twins) twinTypes.push_back(twin->type);
    readTensorData(ggml, file.gguf, file.metadata, stream.get(), c.modelPath, picker.twins, twinTypes);
    readTransposedCopies(ggml, file.gguf, stream.get(), c.modelPath, picker.transposedSources, picker.transposedCopies);
    for (size_t index = 0; index < weights.all.size(); index++) {
      if (picker.storedTypes[index] != weights.all[index]->type) weights.convertedBytes += ggml.ggml_nbytes(weights.all[index]);
    }
    if (c.trainable && c.loraPath.empty()) {
      // rope_freqs is a constant of the architecture, never trained (ggml has no gradient for it).
      for (ggml_tensor* tensor : weights.all) {
        if (tensor == weights.ropeFrequencies) continue;
        ggml.ggml_set_param(tensor);
        weights.trainable.push_back(tensor);
      }
    }
    if (!c.loraPath.empty()) loadAdapter(ggml, c, weights, backend);
    // Marked as weights: a scheduler (GgmlGraphRunner's, when a node falls back to the CPU) runs each
    // operation on the backend that holds its weights, and copies the rest; unmarked, it would place
    // everything downstream of the CPU-side inputs on the CPU.
    for (ggml_backend_buffer_t buffer : {weights.buffer, weights.twinBuffer, weights.adapterBuffer, weights.transposedBuffer}) {
      if (buffer != nullptr) ggml.ggml_backend_buffer_set_usage(buffer, GGML_BACKEND_BUFFER_USAGE_WEIGHTS);
    }
    for (ggml_backend_buffer_t buffer : weights.extraBuffers) ggml.ggml_backend_buffer_set_usage(buffer, GGML_BACKEND_BUFFER_USAGE_WEIGHTS);
  } catch (...) {
    freeGgmlPolicyWeights(ggml, weights);
    throw;
  }
  return weights;
}

void patchForwardProducts(const GgmlLibrary& ggml, const GgmlPolicyWeights& weights, ggml_cgraph* graph, int nodes) {
  if (weights.forwardCopies.empty()) return;
  for (int index = 0; index < nodes; index++) {
    ggml_tensor* node = ggml.ggml_graph_node(graph, index);
    if (node->op != GGML_OP_MUL_MAT) continue;
    const auto copy = weights.forwardCopies.find(node->src[0]);
    if (copy != weights.forwardCopies.end()) node->src[0] = copy->second;
  }
}

void freeGgmlPolicyWeights(const GgmlLibrary& ggml, GgmlPolicyWeights& weights) {
  for (ggml_backend_buffer_t buffer : weights.extraBuffers) ggml.ggml_backend_buffer_free(buffer);
  for (ggml_context* context : weights.extraContexts) ggml.ggml_free(context);
  weights.extraBuffers.clear();
  weights.extraContexts.clear();
  weights.forwardCopies.clear();
  if (weights.twinBuffer != nullptr) ggml.ggml_backend_buffer_free(weights.twinBuffer);
  if (weights.twinContext != nullptr) ggml.ggml_free(weights.twinContext);
  weights.twinBuffer = nullptr;
  weights.twinContext = nullptr;
  weights.transposedCopies.clear();
  if (weights.transposedBuffer != nullptr) ggml.ggml_backend_buffer_free(weights.transposedBuffer);
  if (weights.transposedContext != nullptr) ggml.ggml_free(weights.transposedContext);
  weights.transposedBuffer = nullptr;
  weights.transposedContext = nullptr;
  if (weights.adapterBuffer != nullptr) ggml.ggml_backend_buffer_free(weights.adapterBuffer);
  if (weights.adapterContext != nullptr) ggml.ggml_free(weights.adapterContext);
  weights.adapterBuffer = nullptr;
  weights.adapterContext = nullptr;
  if (weights.buffer != nullptr) ggml.ggml_backend_buffer_free(weights.buffer);
  if (weights.context != nullptr) ggml.ggml_free(weights.context);
  weights.buffer = nullptr;
  weights.context = nullptr;
}
