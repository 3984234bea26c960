#include "ggml-policy-weights.h"

#include <cstdio>
#include <memory>
#include <stdexcept>

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

class TensorPicker {
 public:
  TensorPicker(const GgmlLibrary& ggml, const GgmlPolicyConfiguration& configuration, ggml_context* metadata, ggml_context* target)
      : ggml(ggml), configuration(configuration), metadata(metadata), target(target) {}

  /** The tensor `name` of shape [dim0, dim1] (dim1 = 1 for vectors), copied into the target context; null when optional and absent. */
  ggml_tensor* pick(const std::string& name, int64_t dim0, int64_t dim1, bool required) {
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
    // ggml's CPU out_prod (the backward of a matrix product towards its input) cannot read f16 or bf16:
    // a LoRA trained over such a base backpropagates through an f32 copy.
    const bool convert = configuration.trainable && !vector && (found->type == GGML_TYPE_F16 || found->type == GGML_TYPE_BF16);
    ggml_tensor* tensor = convert ? ggml.ggml_new_tensor_2d(target, GGML_TYPE_F32, found->ne[0], found->ne[1]) : ggml.ggml_dup_tensor(target, found);
    ggml.ggml_set_name(tensor, name.c_str());
    all.push_back(tensor);
    storedTypes.push_back(found->type);
    return tensor;
  }

  std::vector<ggml_tensor*> all;
  /** The file's type of each tensor in `all` (f16/bf16 ones converted to f32 on load). */
  std::vector<ggml_type> storedTypes;

 private:
  const GgmlLibrary& ggml;
  const GgmlPolicyConfiguration& configuration;
  ggml_context* metadata;
  ggml_context* target;
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
    TensorPicker picker(ggml, c, file.metadata, weights.context);
    const int64_t embedding = c.embeddingLength, queryWidth = c.headCount * c.keyLength, keyWidth = c.headCountKv * c.keyLength,
                  valueWidth = c.headCountKv * c.valueLength, outputWidth = c.headCount * c.valueLength, feedForward = c.feedForwardLength;
    weights.tokenEmbedding = picker.pick("token_embd.weight", embedding, c.vocabularySize, true);
    weights.outputNorm = picker.pick("output_norm.weight", embedding, 1, true);
    weights.output = picker.pick("output.weight", embedding, c.vocabularySize, false);
    if (weights.output == nullptr) weights.output = weights.tokenEmbedding;
    weights.ropeFrequencies = picker.pick("rope_freqs.weight", c.keyLength / 2, 1, false);
    for (int64_t block = 0; block < c.blockCount; block++) {
      const std::string prefix = "blk." + std::to_string(block) + ".";
      GgmlBlockWeights b;
      b.attentionNorm = picker.pick(prefix + "attn_norm.weight", embedding, 1, true);
      b.query = picker.pick(prefix + "attn_q.weight", embedding, queryWidth, true);
      b.key = picker.pick(prefix + "attn_k.weight", embedding, keyWidth, true);
      b.value = picker.pick(prefix + "attn_v.weight", embedding, valueWidth, true);
      b.queryBias = picker.pick(prefix + "attn_q.bias", queryWidth, 1, false);
      b.keyBias = picker.pick(prefix + "attn_k.bias", keyWidth, 1, false);
      b.valueBias = picker.pick(prefix + "attn_v.bias", valueWidth, 1, false);
      b.attentionOutput = picker.pick(prefix + "attn_output.weight", outputWidth, embedding, true);
      b.feedForwardNorm = picker.pick(prefix + "ffn_norm.weight", embedding, 1, true);
      b.gate = picker.pick(prefix + "ffn_gate.weight", embedding, feedForward, true);
      b.up = picker.pick(prefix + "ffn_up.weight", embedding, feedForward, true);
      b.down = picker.pick(prefix + "ffn_down.weight", feedForward, embedding, true);
      weights.blocks.push_back(b);
    }
    weights.all = picker.all;
    weights.buffer = ggml.ggml_backend_alloc_ctx_tensors(weights.context, backend);
    if (weights.buffer == nullptr) throw std::runtime_error("the backend could not allocate the model's weights (" + c.modelPath + ")");

    std::unique_ptr<FILE, int (*)(FILE*)> stream(std::fopen(c.modelPath.c_str(), "rb"), std::fclose);
    if (!stream) throw std::invalid_argument("cannot open " + c.modelPath);
    readTensorData(ggml, file.gguf, file.metadata, stream.get(), c.modelPath, weights.all, picker.storedTypes);
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
  } catch (...) {
    freeGgmlPolicyWeights(ggml, weights);
    throw;
  }
  return weights;
}

void freeGgmlPolicyWeights(const GgmlLibrary& ggml, GgmlPolicyWeights& weights) {
  if (weights.adapterBuffer != nullptr) ggml.ggml_backend_buffer_free(weights.adapterBuffer);
  if (weights.adapterContext != nullptr) ggml.ggml_free(weights.adapterContext);
  weights.adapterBuffer = nullptr;
  weights.adapterContext = nullptr;
  if (weights.buffer != nullptr) ggml.ggml_backend_buffer_free(weights.buffer);
  if (weights.context != nullptr) ggml.ggml_free(weights.context);
  weights.buffer = nullptr;
  weights.context = nullptr;
}
