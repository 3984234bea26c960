#include "random-model.h"

#include <cmath>
#include <stdexcept>
#include <vector>

#include "gguf.h"

namespace {

/** splitmix64 seeded per tensor, Box–Muller: fast enough for 1.5 B values, the same file for the same seed. */
class Normal {
 public:
  Normal(uint64_t seed, const std::string& name) : state(seed) {
    for (char c : name) state = (state ^ static_cast<uint8_t>(c)) * 0x100000001b3ULL;
  }
  float next(float scale) {
    if (hasSpare) {
      hasSpare = false;
      return spare * scale;
    }
    double u1 = (static_cast<double>(bits() >> 11) + 1.0) / 9007199254740993.0;
    double u2 = static_cast<double>(bits() >> 11) / 9007199254740992.0;
    double radius = std::sqrt(-2.0 * std::log(u1));
    spare = static_cast<float>(radius * std::sin(2 * M_PI * u2));
    hasSpare = true;
    return static_cast<float>(radius * std::cos(2 * M_PI * u2)) * scale;
  }

 private:
  uint64_t bits() {
    uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }
  uint64_t state;
  float spare = 0;
  bool hasSpare = false;
};

std::string utf8(uint32_t code) {
  std::string out;
  if (code < 0x80) {
    out += static_cast<char>(code);
  } else if (code < 0x800) {
    out += static_cast<char>(0xc0 | (code >> 6));
    out += static_cast<char>(0x80 | (code & 0x3f));
  } else {
    out += static_cast<char>(0xe0 | (code >> 12));
    out += static_cast<char>(0x80 | ((code >> 6) & 0x3f));
    out += static_cast<char>(0x80 | (code & 0x3f));
  }
  return out;
}

struct TensorSpec {
  std::string name;
  int64_t in;   // dims[0]
  int64_t out;  // dims[1]; 1 for vectors
  enum { random, ones, bias } initialisation;
};

std::vector<TensorSpec> modelTensors(const RandomModelShape& s) {
  const int64_t head = s.embeddingLength / s.headCount;
  const int64_t q = s.headCount * head, kv = s.headCountKv * head;
  std::vector<TensorSpec> t = {{"token_embd.weight", s.embeddingLength, s.vocabularySize, TensorSpec::random},
                               {"output_norm.weight", s.embeddingLength, 1, TensorSpec::ones}};
  for (int64_t b = 0; b < s.blockCount; b++) {
    const std::string p = "blk." + std::to_string(b) + ".";
    t.push_back({p + "attn_norm.weight", s.embeddingLength, 1, TensorSpec::ones});
    t.push_back({p + "attn_q.weight", s.embeddingLength, q, TensorSpec::random});
    t.push_back({p + "attn_k.weight", s.embeddingLength, kv, TensorSpec::random});
    t.push_back({p + "attn_v.weight", s.embeddingLength, kv, TensorSpec::random});
    t.push_back({p + "attn_output.weight", q, s.embeddingLength, TensorSpec::random});
    if (s.architecture == "qwen2") {
      t.push_back({p + "attn_q.bias", q, 1, TensorSpec::bias});
      t.push_back({p + "attn_k.bias", kv, 1, TensorSpec::bias});
      t.push_back({p + "attn_v.bias", kv, 1, TensorSpec::bias});
    }
    t.push_back({p + "ffn_norm.weight", s.embeddingLength, 1, TensorSpec::ones});
    t.push_back({p + "ffn_gate.weight", s.embeddingLength, s.feedForwardLength, TensorSpec::random});
    t.push_back({p + "ffn_down.weight", s.feedForwardLength, s.embeddingLength, TensorSpec::random});
    t.push_back({p + "ffn_up.weight", s.embeddingLength, s.feedForwardLength, TensorSpec::random});
  }
  return t;
}

void write(gguf_context* gguf, ggml_context* context, const std::string& path) {
  if (!gguf_write_to_file(gguf, (path + ".partial").c_str(), false)) throw std::runtime_error("cannot write " + path);
  if (std::rename((path + ".partial").c_str(), path.c_str()) != 0) throw std::runtime_error("cannot rename to " + path);
  gguf_free(gguf);
  ggml_free(context);
}

}  // namespace

RandomModelShape randomModelShape(const std::string& preset, const std::string& architecture) {
  RandomModelShape s{preset + "-" + architecture, architecture, 259, 0, 0, 0, 0, 0, 0};
  if (preset == "tiny") s = {s.name, architecture, 259, 256, 64, 2, 192, 4, 4};
  else if (preset == "small") s = {s.name, architecture, 259, 256, 128, 4, 384, 4, 2};
  else if (preset == "medium") s = {s.name, architecture, 259, 512, 256, 4, 768, 4, 2};
  else if (preset == "qwen2-0.5b") s = {s.name, architecture, 151936, 512, 896, 24, 4864, 14, 2};
  else if (preset == "qwen2-1.5b") s = {s.name, architecture, 151936, 512, 1536, 28, 8960, 12, 2};
  else throw std::invalid_argument("unknown preset " + preset);
  return s;
}

int64_t writeRandomModel(const std::string& path, const RandomModelShape& shape, ggml_type weightType, uint64_t seed) {
  const std::vector<TensorSpec> specs = modelTensors(shape);
  size_t bytes = 0;
  for (const TensorSpec& spec : specs) {
    const ggml_type type = spec.initialisation == TensorSpec::random ? weightType : GGML_TYPE_F32;
    bytes += ggml_row_size(type, spec.in) * spec.out + ggml_tensor_overhead();
  }
  ggml_init_params params = {bytes + (1 << 20), nullptr, false};
  ggml_context* context = ggml_init(params);
  gguf_context* gguf = gguf_init_empty();
  const std::string& a = shape.architecture;
  gguf_set_val_str(gguf, "general.architecture", a.c_str());
  gguf_set_val_str(gguf, "general.name", ("selfplay-" + shape.name).c_str());
  gguf_set_val_u32(gguf, "general.file_type", weightType == GGML_TYPE_F32 ? 0 : weightType == GGML_TYPE_F16 ? 1 : 7);
  if (weightType == GGML_TYPE_Q8_0) gguf_set_val_u32(gguf, "general.quantization_version", 2);
  gguf_set_val_u32(gguf, (a + ".vocab_size").c_str(), shape.vocabularySize);
  gguf_set_val_u32(gguf, (a + ".context_length").c_str(), shape.contextLength);
  gguf_set_val_u32(gguf, (a + ".embedding_length").c_str(), shape.embeddingLength);
  gguf_set_val_u32(gguf, (a + ".block_count").c_str(), shape.blockCount);
  gguf_set_val_u32(gguf, (a + ".feed_forward_length").c_str(), shape.feedForwardLength);
  gguf_set_val_u32(gguf, (a + ".attention.head_count").c_str(), shape.headCount);
  gguf_set_val_u32(gguf, (a + ".attention.head_count_kv").c_str(), shape.headCountKv);
  gguf_set_val_u32(gguf, (a + ".rope.dimension_count").c_str(), shape.embeddingLength / shape.headCount);
  gguf_set_val_f32(gguf, (a + ".rope.freq_base").c_str(), 10000.0f);
  gguf_set_val_f32(gguf, (a + ".attention.layer_norm_rms_epsilon").c_str(), 1e-5f);
  // The byte vocabulary (byte-vocabulary.ts): 3 specials, 256 bytes spelled with GPT-2's table, padding.
  std::vector<std::string> tokens = {"<pad>", "<s>", "</s>"};
  std::vector<int32_t> types = {3, 3, 3};
  uint32_t next = 0x100;
  for (uint32_t byte = 0; byte < 256; byte++) {
    const bool printable = (byte >= 0x21 && byte <= 0x7e) || (byte >= 0xa1 && byte <= 0xac) || (byte >= 0xae && byte <= 0xff);
    tokens.push_back(utf8(printable ? byte : next++));
    types.push_back(1);
  }
  for (int64_t id = static_cast<int64_t>(tokens.size()); id < shape.vocabularySize; id++) {
    tokens.push_back("[PAD" + std::to_string(id) + "]");
    types.push_back(5);
  }
  std::vector<const char*> tokenPointers;
  for (const std::string& token : tokens) tokenPointers.push_back(token.c_str());
  gguf_set_val_str(gguf, "tokenizer.ggml.model", "gpt2");
  gguf_set_val_str(gguf, "tokenizer.ggml.pre", "default");
  gguf_set_arr_str(gguf, "tokenizer.ggml.tokens", tokenPointers.data(), tokenPointers.size());
  gguf_set_arr_data(gguf, "tokenizer.ggml.token_type", GGUF_TYPE_INT32, types.data(), types.size());
  gguf_set_arr_str(gguf, "tokenizer.ggml.merges", nullptr, 0);
  gguf_set_val_u32(gguf, "tokenizer.ggml.bos_token_id", 1);
  gguf_set_val_u32(gguf, "tokenizer.ggml.eos_token_id", 2);
  gguf_set_val_u32(gguf, "tokenizer.ggml.padding_token_id", 0);

  int64_t parameters = 0;
  std::vector<float> values;
  for (const TensorSpec& spec : specs) {
    const ggml_type type = spec.initialisation == TensorSpec::random ? weightType : GGML_TYPE_F32;
    ggml_tensor* tensor = spec.out == 1 ? ggml_new_tensor_1d(context, type, spec.in) : ggml_new_tensor_2d(context, type, spec.in, spec.out);
    ggml_set_name(tensor, spec.name.c_str());
    const int64_t count = spec.in * spec.out;
    parameters += count;
    values.assign(count, spec.initialisation == TensorSpec::ones ? 1.0f : 0.0f);
    if (spec.initialisation != TensorSpec::ones) {
      Normal normal(seed, spec.name);
      for (float& value : values) value = normal.next(0.02f);
    }
    if (type == GGML_TYPE_F32) {
      std::copy(values.begin(), values.end(), static_cast<float*>(tensor->data));
    } else if (type == GGML_TYPE_F16) {
      ggml_fp32_to_fp16_row(values.data(), static_cast<ggml_fp16_t*>(tensor->data), count);
    } else {
      ggml_quantize_chunk(type, values.data(), tensor->data, 0, spec.out, spec.in, nullptr);
    }
    gguf_add_tensor(gguf, tensor);
  }
  write(gguf, context, path);
  return parameters;
}

void writeRandomLora(const std::string& path, const RandomModelShape& shape, int64_t rank, float alpha, uint64_t seed) {
  std::vector<TensorSpec> adapted;
  for (const TensorSpec& spec : modelTensors(shape)) {
    if (spec.initialisation == TensorSpec::random && spec.name.rfind("blk.", 0) == 0) adapted.push_back(spec);
  }
  size_t bytes = 0;
  for (const TensorSpec& spec : adapted) bytes += 4 * rank * (spec.in + spec.out) + 2 * ggml_tensor_overhead();
  ggml_init_params params = {bytes + (1 << 20), nullptr, false};
  ggml_context* context = ggml_init(params);
  gguf_context* gguf = gguf_init_empty();
  gguf_set_val_str(gguf, "general.type", "adapter");
  gguf_set_val_str(gguf, "general.architecture", shape.architecture.c_str());
  gguf_set_val_str(gguf, "adapter.type", "lora");
  gguf_set_val_f32(gguf, "adapter.lora.alpha", alpha);
  gguf_set_val_str(gguf, "general.name", ("selfplay-" + shape.name + "-lora").c_str());
  for (const TensorSpec& spec : adapted) {
    // lora_a: dims [in, rank]; lora_b: dims [rank, out] (lora-adapter-format.ts).
    ggml_tensor* a = ggml_new_tensor_2d(context, GGML_TYPE_F32, spec.in, rank);
    ggml_tensor* b = ggml_new_tensor_2d(context, GGML_TYPE_F32, rank, spec.out);
    const std::string base = spec.name;
    ggml_set_name(a, (base + ".lora_a").c_str());
    ggml_set_name(b, (base + ".lora_b").c_str());
    Normal na(seed, base + ".lora_a"), nb(seed, base + ".lora_b");
    // A ~ N(0, 1/in) (Kaiming-like), B ~ N(0, 0.02²): the adapter moves the logits measurably.
    const float scaleA = 1.0f / std::sqrt(static_cast<float>(spec.in));
    for (int64_t i = 0; i < ggml_nelements(a); i++) static_cast<float*>(a->data)[i] = na.next(scaleA);
    for (int64_t i = 0; i < ggml_nelements(b); i++) static_cast<float*>(b->data)[i] = nb.next(0.02f);
    gguf_add_tensor(gguf, a);
    gguf_add_tensor(gguf, b);
  }
  write(gguf, context, path);
}
