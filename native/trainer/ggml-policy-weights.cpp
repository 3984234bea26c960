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
    const bool typeOk = configuration.trainable || vector ? found->type == GGML_TYPE_F32 : isMatrixType(found->type);
    if (!typeOk) {
      throw std::invalid_argument(configuration.modelPath + ": " + name + " is " + ggml.ggml_type_name(found->type) +
                                  (configuration.trainable ? "; full-weight training needs an f32 model (write one with `selfplay model create` or convert the file to f32)"
                                                           : "; the trainer reads f32 norms and biases and f32, f16, bf16, q4_0–q8_0 or k-quant matrices"));
    }
    ggml_tensor* tensor = ggml.ggml_dup_tensor(target, found);
    ggml.ggml_set_name(tensor, name.c_str());
    all.push_back(tensor);
    return tensor;
  }

  std::vector<ggml_tensor*> all;

 private:
  const GgmlLibrary& ggml;
  const GgmlPolicyConfiguration& configuration;
  ggml_context* metadata;
  ggml_context* target;
};

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
    std::vector<uint8_t> bytes;
    const size_t dataOffset = ggml.gguf_get_data_offset(file.gguf);
    for (ggml_tensor* tensor : weights.all) {
      const int64_t index = ggml.gguf_find_tensor(file.gguf, tensor->name);
      const size_t size = ggml.ggml_nbytes(tensor);
      bytes.resize(size);
      if (std::fseek(stream.get(), static_cast<long>(dataOffset + ggml.gguf_get_tensor_offset(file.gguf, index)), SEEK_SET) != 0 ||
          std::fread(bytes.data(), 1, size, stream.get()) != size) {
        throw std::invalid_argument(c.modelPath + " is truncated: cannot read " + tensor->name);
      }
      ggml.ggml_backend_tensor_set(tensor, bytes.data(), 0, size);
      // rope_freqs is a constant of the architecture, never trained (ggml has no gradient for it).
      if (c.trainable && tensor != weights.ropeFrequencies) ggml.ggml_set_param(tensor);
    }
  } catch (...) {
    freeGgmlPolicyWeights(ggml, weights);
    throw;
  }
  return weights;
}

void freeGgmlPolicyWeights(const GgmlLibrary& ggml, GgmlPolicyWeights& weights) {
  if (weights.buffer != nullptr) ggml.ggml_backend_buffer_free(weights.buffer);
  if (weights.context != nullptr) ggml.ggml_free(weights.context);
  weights.buffer = nullptr;
  weights.context = nullptr;
}
