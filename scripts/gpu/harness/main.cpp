// selfplay-gpu-check: the trainer (native/trainer, compiled from the addon's own sources) against
// llama.cpp's engine on one ggml device, each figure appended to a JSON-lines file as it finishes.
//   selfplay-gpu-check models WORK_DIR PRESET ARCH TYPE [LORA_RANK]    writes WORK_DIR/<PRESET>-<ARCH>-<TYPE>.gguf (+ -lora.gguf)
//   selfplay-gpu-check agreement DEVICE MODEL [LORA]                   engine vs trainer logprobs, and the engine's floor
//   selfplay-gpu-check gradients DEVICE MODEL [LORA]                   trainer on DEVICE vs trainer on CPU; fallback nodes of a step
//   selfplay-gpu-check train DEVICE MODEL [LORA] SEQUENCES STEPS       trainer tokens/s (forward + backward + AdamW), peak memory
// Environment: RESULTS (the .jsonl appended to; default stdout only), LABEL (a name for the figures),
// THREADS (ggml CPU threads; default all). Exits 3 when DEVICE is not one of ggml's devices.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <map>
#include <random>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "ggml-backend.h"
#include "gguf.h"
#include "llama.h"
#include "ggml-library.h"
#include "random-model.h"
#include "trainer/ggml-policy.h"

namespace {

using Clock = std::chrono::steady_clock;

std::string label() {
  const char* value = std::getenv("LABEL");
  return value != nullptr ? value : "";
}

int threads() {
  const char* value = std::getenv("THREADS");
  if (value != nullptr && std::atoi(value) > 0) return std::atoi(value);
  return static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
}

std::string quote(const std::string& text) {
  std::string out = "\"";
  for (char c : text) {
    if (c == '"' || c == '\\') out += '\\';
    if (c == '\n') {
      out += "\\n";
      continue;
    }
    out += c;
  }
  return out + "\"";
}

std::string number(double value) {
  if (!std::isfinite(value)) return "null";
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.6g", value);
  return buffer;
}

/** One figure: a JSON object, appended as one line to $RESULTS and printed. */
class Figure {
 public:
  explicit Figure(const std::string& name) { add("figure", name); }
  Figure& add(const std::string& key, const std::string& value) {
    fields.push_back(quote(key) + ":" + quote(value));
    return *this;
  }
  Figure& add(const std::string& key, const char* value) { return add(key, std::string(value != nullptr ? value : "")); }
  Figure& add(const std::string& key, double value) {
    fields.push_back(quote(key) + ":" + number(value));
    return *this;
  }
  Figure& add(const std::string& key, int64_t value) {
    fields.push_back(quote(key) + ":" + std::to_string(value));
    return *this;
  }
  Figure& add(const std::string& key, bool value) {
    fields.push_back(quote(key) + ":" + (value ? "true" : "false"));
    return *this;
  }
  void emit() {
    if (!label().empty()) add("label", label());
    std::string line = "{";
    for (size_t i = 0; i < fields.size(); i++) line += (i ? "," : "") + fields[i];
    line += "}";
    std::cout << line << std::endl;
    const char* path = std::getenv("RESULTS");
    if (path != nullptr) {
      std::ofstream out(path, std::ios::app);
      out << line << "\n";
    }
  }

 private:
  std::vector<std::string> fields;
};

struct MissingDevice : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/** Fails with the list of ggml's devices when `name` is not one of them. */
void requireDevice(const std::string& name) {
  if (ggml_backend_dev_by_name(name.c_str()) != nullptr) return;
  std::string names;
  for (size_t i = 0; i < ggml_backend_dev_count(); i++) names += std::string(names.empty() ? "" : ", ") + ggml_backend_dev_name(ggml_backend_dev_get(i));
  throw MissingDevice("no ggml device named " + name + " (this build has: " + names + ")");
}

std::string modelName(const std::string& path) {
  std::string base = path.substr(path.find_last_of('/') + 1);
  return base.substr(0, base.rfind(".gguf"));
}

// ---------------------------------------------------------------- configuration from the GGUF metadata

GgmlPolicyConfiguration readConfiguration(const std::string& model, const std::string& lora, const std::string& device, bool trainable) {
  gguf_init_params params = {true, nullptr};
  gguf_context* gguf = gguf_init_from_file(model.c_str(), params);
  if (gguf == nullptr) throw std::runtime_error("cannot read " + model);
  const auto text = [&](const std::string& key) {
    int64_t id = gguf_find_key(gguf, key.c_str());
    if (id < 0) throw std::runtime_error(model + " lacks " + key);
    return std::string(gguf_get_val_str(gguf, id));
  };
  const std::string a = text("general.architecture");
  const auto u32 = [&](const std::string& key) {
    int64_t id = gguf_find_key(gguf, (a + "." + key).c_str());
    if (id < 0) throw std::runtime_error(model + " lacks " + a + "." + key);
    return static_cast<int64_t>(gguf_get_val_u32(gguf, id));
  };
  const auto f32 = [&](const std::string& key) { return gguf_get_val_f32(gguf, gguf_find_key(gguf, (a + "." + key).c_str())); };
  GgmlPolicyConfiguration c;
  c.modelPath = model;
  c.neoxRope = a == "qwen2";
  c.vocabularySize = u32("vocab_size");
  c.contextLength = u32("context_length");
  c.embeddingLength = u32("embedding_length");
  c.blockCount = u32("block_count");
  c.feedForwardLength = u32("feed_forward_length");
  c.headCount = u32("attention.head_count");
  c.headCountKv = u32("attention.head_count_kv");
  c.keyLength = c.embeddingLength / c.headCount;
  c.valueLength = c.keyLength;
  c.ropeFrequencyBase = f32("rope.freq_base");
  c.rmsNormEpsilon = f32("attention.layer_norm_rms_epsilon");
  gguf_free(gguf);
  c.trainable = trainable;
  c.threads = threads();
  c.device = device;
  if (!lora.empty()) {
    gguf_context* adapter = gguf_init_from_file(lora.c_str(), params);
    if (adapter == nullptr) throw std::runtime_error("cannot read " + lora);
    const float alpha = gguf_get_val_f32(adapter, gguf_find_key(adapter, "adapter.lora.alpha"));
    // The rank is lora_b's dims[0] (lora-adapter-format.ts); the tensor infos carry no shape here, so read it from a context.
    gguf_free(adapter);
    ggml_context* meta = nullptr;
    gguf_init_params withMeta = {true, &meta};
    adapter = gguf_init_from_file(lora.c_str(), withMeta);
    int64_t rank = 0;
    for (ggml_tensor* t = ggml_get_first_tensor(meta); t != nullptr; t = ggml_get_next_tensor(meta, t)) {
      std::string name = ggml_get_name(t);
      if (name.size() > 7 && name.substr(name.size() - 7) == ".lora_b") {
        rank = t->ne[0];
        break;
      }
    }
    gguf_free(adapter);
    ggml_free(meta);
    if (rank <= 0) throw std::runtime_error(lora + " has no .lora_b tensor");
    c.loraPath = lora;
    c.loraScale = alpha / static_cast<float>(rank);
  }
  return c;
}

// ---------------------------------------------------------------- the engine (llama.cpp, exact mode)

struct Engine {
  llama_model* model = nullptr;
  llama_context* context = nullptr;
  llama_adapter_lora* adapter = nullptr;
  int64_t vocabulary = 0;

  Engine(const std::string& modelPath, const std::string& loraPath, const std::string& device, int contextLength) {
    llama_model_params modelParams = llama_model_default_params();
    ggml_backend_dev_t devices[2] = {nullptr, nullptr};
    if (device != "CPU") {
      devices[0] = ggml_backend_dev_by_name(device.c_str());
      modelParams.devices = devices;
      modelParams.n_gpu_layers = 999;
    } else {
      modelParams.devices = devices;  // none: every layer on the CPU
      modelParams.n_gpu_layers = 0;
    }
    model = llama_model_load_from_file(modelPath.c_str(), modelParams);
    if (model == nullptr) throw std::runtime_error("the engine cannot load " + modelPath);
    llama_context_params params = llama_context_default_params();
    params.n_ctx = contextLength;
    params.n_batch = contextLength;
    params.n_ubatch = contextLength;
    params.n_seq_max = 1;
    params.n_threads = threads();
    params.n_threads_batch = threads();
    params.flash_attn_type = LLAMA_FLASH_ATTN_TYPE_DISABLED;
    params.type_k = GGML_TYPE_F32;
    params.type_v = GGML_TYPE_F32;
    params.offload_kqv = true;
    params.no_perf = true;
    context = llama_init_from_model(model, params);
    if (context == nullptr) throw std::runtime_error("the engine cannot make a context for " + modelPath);
    if (!loraPath.empty()) {
      adapter = llama_adapter_lora_init(model, loraPath.c_str());
      if (adapter == nullptr) throw std::runtime_error("the engine cannot load the adapter " + loraPath);
      float scale = 1.0f;
      if (llama_set_adapters_lora(context, &adapter, 1, &scale) != 0) throw std::runtime_error("the engine cannot apply " + loraPath);
    }
    vocabulary = llama_vocab_n_tokens(llama_model_get_vocab(model));
  }
  ~Engine() {
    if (context) llama_free(context);
    if (adapter) llama_adapter_lora_free(adapter);
    if (model) llama_model_free(model);
  }

  /** Decodes tokens[from, to) at positions from.. as one batch, logits on the rows `outputs` marks. */
  void decode(const std::vector<int32_t>& tokens, size_t from, size_t to, bool allLogits) {
    llama_batch batch = llama_batch_init(static_cast<int32_t>(to - from), 0, 1);
    for (size_t i = from; i < to; i++) {
      const int32_t k = batch.n_tokens++;
      batch.token[k] = tokens[i];
      batch.pos[k] = static_cast<llama_pos>(i);
      batch.n_seq_id[k] = 1;
      batch.seq_id[k][0] = 0;
      batch.logits[k] = allLogits || i + 1 == to;
    }
    const int32_t status = llama_decode(context, batch);
    llama_batch_free(batch);
    if (status != 0) throw std::runtime_error("llama_decode failed: " + std::to_string(status));
  }

  /** log softmax(logits of output row `index`)[token] (temperature 1). */
  double logprob(int32_t index, int32_t token) {
    const float* logits = llama_get_logits_ith(context, index);
    double max = -INFINITY;
    for (int64_t v = 0; v < vocabulary; v++) max = std::max(max, static_cast<double>(logits[v]));
    double sum = 0;
    for (int64_t v = 0; v < vocabulary; v++) sum += std::exp(static_cast<double>(logits[v]) - max);
    return logits[token] - max - std::log(sum);
  }

  int32_t sample(int32_t index, std::mt19937_64& random) {
    const float* logits = llama_get_logits_ith(context, index);
    std::vector<double> weights(vocabulary);
    double max = -INFINITY;
    for (int64_t v = 0; v < vocabulary; v++) max = std::max(max, static_cast<double>(logits[v]));
    for (int64_t v = 0; v < vocabulary; v++) weights[v] = std::exp(logits[v] - max);
    std::discrete_distribution<int32_t> pick(weights.begin(), weights.end());
    return pick(random);
  }

  void clear() { llama_memory_clear(llama_get_memory(context), true); }
};

struct Sequence {
  std::vector<int32_t> prompt;
  std::vector<int32_t> completion;
};

/** Prompts of byte tokens (3..258), each completed by the engine: the prompt in one batch, then one token at a time. */
std::vector<Sequence> sampleSequences(Engine& engine, int count, int promptLength, int completionLength, std::vector<double>& sequential) {
  std::mt19937_64 random(1234);
  std::uniform_int_distribution<int32_t> bytes(3, 258);
  std::vector<Sequence> sequences;
  for (int s = 0; s < count; s++) {
    Sequence sequence;
    for (int i = 0; i < promptLength; i++) sequence.prompt.push_back(bytes(random));
    std::vector<int32_t> tokens = sequence.prompt;
    engine.clear();
    engine.decode(tokens, 0, tokens.size(), false);
    for (int i = 0; i < completionLength; i++) {
      const int32_t token = engine.sample(-1, random);
      sequential.push_back(engine.logprob(-1, token));
      sequence.completion.push_back(token);
      tokens.push_back(token);
      if (i + 1 < completionLength) engine.decode(tokens, tokens.size() - 1, tokens.size(), true);
    }
    sequences.push_back(sequence);
  }
  return sequences;
}

/** The same tokens scored in one batch each: the engine's floor against its own sequential scores. */
std::vector<double> batchScores(Engine& engine, const std::vector<Sequence>& sequences) {
  std::vector<double> scores;
  for (const Sequence& sequence : sequences) {
    std::vector<int32_t> tokens = sequence.prompt;
    tokens.insert(tokens.end(), sequence.completion.begin(), sequence.completion.end() - 1);
    engine.clear();
    engine.decode(tokens, 0, tokens.size(), true);
    for (size_t i = 0; i < sequence.completion.size(); i++) {
      scores.push_back(engine.logprob(static_cast<int32_t>(sequence.prompt.size() - 1 + i), sequence.completion[i]));
    }
  }
  return scores;
}

/** The trainer's chunk, as packGgmlChunks builds one: each sequence's prompt and all but its last completion token. */
GgmlChunk chunkOf(const std::vector<Sequence>& sequences) {
  GgmlChunk chunk;
  for (const Sequence& sequence : sequences) {
    const int32_t start = static_cast<int32_t>(chunk.tokens.size());
    chunk.tokens.insert(chunk.tokens.end(), sequence.prompt.begin(), sequence.prompt.end());
    chunk.tokens.insert(chunk.tokens.end(), sequence.completion.begin(), sequence.completion.end() - 1);
    chunk.sequenceLengths.push_back(static_cast<int32_t>(sequence.prompt.size() + sequence.completion.size() - 1));
    for (size_t i = 0; i < sequence.completion.size(); i++) {
      chunk.targetRows.push_back(start + static_cast<int32_t>(sequence.prompt.size() - 1 + i));
      chunk.targetTokens.push_back(sequence.completion[i]);
      chunk.temperatures.push_back(1.0f);
    }
  }
  return chunk;
}

void differences(Figure& figure, const std::string& prefix, const std::vector<double>& a, const std::vector<double>& b) {
  std::vector<double> d;
  for (size_t i = 0; i < a.size(); i++) d.push_back(std::fabs(a[i] - b[i]));
  std::sort(d.begin(), d.end());
  const double p99 = d.empty() ? NAN : d[static_cast<size_t>(std::floor(0.99 * static_cast<double>(d.size() - 1)))];
  figure.add(prefix + "max", d.empty() ? NAN : d.back()).add(prefix + "p99", p99);
}

void agreement(const std::string& device, const std::string& model, const std::string& lora) {
  requireDevice(device);
  const GgmlPolicyConfiguration configuration = readConfiguration(model, lora, device, false);
  const int count = 4, promptLength = 16, completionLength = 24;
  std::vector<double> sequential, batched;
  std::vector<Sequence> sequences;
  {
    Engine engine(model, lora, device, static_cast<int>(std::min<int64_t>(configuration.contextLength, 512)));
    sequences = sampleSequences(engine, count, promptLength, completionLength, sequential);
    batched = batchScores(engine, sequences);
  }
  GgmlPolicy policy(configuration);
  const GgmlChunk chunk = chunkOf(sequences);
  const GgmlForwardOutputs outputs = policy.forward(chunk, false, false);
  std::vector<double> trainer(outputs.logprobs.begin(), outputs.logprobs.end());
  Figure figure("agreement");
  figure.add("device", device).add("model", modelName(model)).add("lora", lora.empty() ? std::string("") : modelName(lora));
  figure.add("deviceDescription", policy.deviceDescription()).add("targets", static_cast<int64_t>(trainer.size()));
  differences(figure, "trainerVsEngine_", trainer, sequential);
  differences(figure, "engineFloor_", batched, sequential);
  differences(figure, "trainerVsEngineBatched_", trainer, batched);
  figure.add("fallbackNodes", policy.fallbackNodes());
  figure.emit();
}

// ---------------------------------------------------------------- gradients and training

std::vector<Sequence> textSequences(int64_t count, int64_t length, uint64_t seed) {
  std::mt19937_64 random(seed);
  std::uniform_int_distribution<int32_t> bytes(3, 258);
  std::vector<Sequence> sequences(count);
  for (Sequence& sequence : sequences) {
    sequence.prompt = {bytes(random)};
    for (int64_t i = 0; i < length; i++) sequence.completion.push_back(bytes(random));
  }
  return sequences;
}

/** The bench's supervised loss (measure-ggml-training.ts): ∂L/∂logprob = −1/N for every predicted token. */
void accumulate(GgmlPolicy& policy, const std::vector<Sequence>& sequences) {
  size_t predicted = 0;
  for (const Sequence& sequence : sequences) predicted += sequence.completion.size();
  for (const Sequence& sequence : sequences) {
    const GgmlChunk chunk = chunkOf({sequence});
    const GgmlForwardOutputs outputs = policy.forward(chunk, false, true);
    policy.backward(std::vector<float>(outputs.logprobs.size(), -1.0f / static_cast<float>(predicted)), {});
  }
}

GgmlAdamWStep adamw(int64_t step) { return {1e-4f, 0.9f, 0.999f, 1e-8f, 0.0f, 1e30f, step}; }

void gradients(const std::string& device, const std::string& model, const std::string& lora) {
  requireDevice(device);
  const std::vector<Sequence> sequences = textSequences(2, 48, 99);
  std::map<std::string, std::vector<float>> reference;
  {
    GgmlPolicyConfiguration cpu = readConfiguration(model, lora, "CPU", true);
    cpu.cpuKernels = GgmlCpuKernels::portable;
    GgmlPolicy policy(cpu);
    accumulate(policy, sequences);
    for (const GgmlTensorInfo& info : policy.tensors()) {
      if (info.trainable) reference[info.name] = policy.read(info.name, GgmlTensorKind::gradient);
    }
  }
  GgmlPolicy policy(readConfiguration(model, lora, device, true));
  accumulate(policy, sequences);
  double minimum = 2, norm = 0, referenceNorm = 0;
  std::string worst;
  int64_t below = 0, tensors = 0;
  for (const GgmlTensorInfo& info : policy.tensors()) {
    if (!info.trainable) continue;
    const std::vector<float> g = policy.read(info.name, GgmlTensorKind::gradient);
    const std::vector<float>& r = reference.at(info.name);
    double dot = 0, gg = 0, rr = 0;
    for (size_t i = 0; i < g.size(); i++) {
      dot += static_cast<double>(g[i]) * r[i];
      gg += static_cast<double>(g[i]) * g[i];
      rr += static_cast<double>(r[i]) * r[i];
    }
    norm += gg;
    referenceNorm += rr;
    const double cosine = gg == 0 && rr == 0 ? 1.0 : dot / std::sqrt(gg * rr);
    tensors++;
    if (!(cosine >= 0.9999)) below++;
    if (!(cosine >= minimum)) {
      minimum = cosine;
      worst = info.name;
    }
  }
  const GgmlStepResult result = policy.step(adamw(1));
  Figure figure("gradients");
  figure.add("device", device).add("model", modelName(model)).add("lora", lora.empty() ? std::string("") : modelName(lora));
  figure.add("tensors", tensors).add("minCosine", minimum).add("worstTensor", worst).add("tensorsBelow0.9999", below);
  figure.add("gradientNorm", std::sqrt(norm)).add("cpuGradientNorm", std::sqrt(referenceNorm)).add("stepApplied", result.applied);
  figure.add("fallbackNodes", policy.fallbackNodes());
  figure.emit();
}

size_t usedDeviceMemory(GgmlPolicy& policy) {
  size_t free = 0, total = 0;
  policy.deviceMemory(free, total);
  return total - free;
}

void train(const std::string& device, const std::string& model, const std::string& lora, int64_t sequencesPerStep, int64_t steps) {
  requireDevice(device);
  size_t freeBefore = 0, total = 0;
  if (ggml_backend_dev_t dev = ggml_backend_dev_by_name(device.c_str())) ggml_backend_dev_memory(dev, &freeBefore, &total);
  const GgmlPolicyConfiguration configuration = readConfiguration(model, lora, device, true);
  const int64_t length = std::min<int64_t>(512, configuration.contextLength);
  GgmlPolicy policy(configuration);
  size_t peak = usedDeviceMemory(policy);
  const auto step = [&](int64_t index) {
    accumulate(policy, textSequences(sequencesPerStep, length, 1000 + index));
    peak = std::max(peak, usedDeviceMemory(policy));
    const GgmlStepResult result = policy.step(adamw(index + 1));
    peak = std::max(peak, usedDeviceMemory(policy));
    return result.gradientNorm;
  };
  step(0);
  const auto started = Clock::now();
  double norm = 0;
  for (int64_t index = 1; index <= steps; index++) norm = step(index);
  const double seconds = std::chrono::duration<double>(Clock::now() - started).count();
  Figure figure("trainerTokensPerSecond");
  figure.add("device", device).add("model", modelName(model)).add("lora", lora.empty() ? std::string("") : modelName(lora));
  figure.add("deviceDescription", policy.deviceDescription());
  figure.add("sequenceLength", length).add("sequencesPerStep", sequencesPerStep).add("steps", steps);
  figure.add("tokensPerSecond", static_cast<double>(steps * sequencesPerStep * length) / seconds).add("secondsPerStep", seconds / steps);
  figure.add("gradientNorm", norm).add("fallbackNodes", policy.fallbackNodes());
  figure.add("policyBytes", static_cast<int64_t>(policy.bytes()));
  figure.add("deviceMemoryUsedBeforeLoad", static_cast<int64_t>(total - freeBefore));
  figure.add("peakDeviceMemoryUsed", static_cast<int64_t>(peak)).add("deviceMemoryTotal", static_cast<int64_t>(total));
  figure.add("peakDeviceMemoryUsedByPolicy", static_cast<int64_t>(peak) - static_cast<int64_t>(total - freeBefore));
  figure.emit();
}

ggml_type typeNamed(const std::string& name) {
  if (name == "f32") return GGML_TYPE_F32;
  if (name == "f16") return GGML_TYPE_F16;
  if (name == "q8_0") return GGML_TYPE_Q8_0;
  throw std::invalid_argument("weight type must be f32, f16 or q8_0");
}

void quiet(ggml_log_level level, const char* text, void*) {
  if (level >= GGML_LOG_LEVEL_WARN || std::getenv("VERBOSE") != nullptr) std::fputs(text, stderr);
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  llama_log_set(quiet, nullptr);
  ggml_log_set(quiet, nullptr);
  llama_backend_init();
  // A ggml built with GGML_BACKEND_DL (node-llama-cpp's prebuilt libraries) registers no backend until loaded.
  if (ggml_backend_dev_count() == 0) {
    const std::string base = ggmlLibrary().path;
    ggml_backend_load_all_from_path(base.substr(0, base.find_last_of('/')).c_str());
  }
  const auto usage = []() {
    std::cerr << "usage: selfplay-gpu-check models WORK PRESET ARCH TYPE [LORA_RANK] | agreement DEVICE MODEL [LORA] |\n"
                 "       gradients DEVICE MODEL [LORA] | train DEVICE MODEL LORA|- SEQUENCES STEPS | devices\n";
    return 2;
  };
  if (args.empty()) return usage();
  try {
    const std::string& command = args[0];
    const auto optional = [&](size_t index) { return args.size() > index && args[index] != "-" ? args[index] : std::string(); };
    if (command == "devices") {
      for (size_t i = 0; i < ggml_backend_dev_count(); i++) {
        ggml_backend_dev_t dev = ggml_backend_dev_get(i);
        size_t free = 0, total = 0;
        ggml_backend_dev_memory(dev, &free, &total);
        Figure("device").add("name", ggml_backend_dev_name(dev)).add("description", ggml_backend_dev_description(dev))
            .add("memoryFree", static_cast<int64_t>(free)).add("memoryTotal", static_cast<int64_t>(total)).emit();
      }
    } else if (command == "models" && args.size() >= 5) {
      const RandomModelShape shape = randomModelShape(args[2], args[3]);
      const std::string base = args[1] + "/" + args[2] + "-" + args[3] + "-" + args[4];
      const auto started = Clock::now();
      const int64_t parameters = writeRandomModel(base + ".gguf", shape, typeNamed(args[4]), 42);
      Figure figure("model");
      figure.add("path", base + ".gguf").add("parameters", parameters);
      if (args.size() >= 6) {
        writeRandomLora(base + "-lora.gguf", shape, std::stoll(args[5]), 2.0f * std::stoll(args[5]), 43);
        figure.add("lora", base + "-lora.gguf").add("loraRank", static_cast<int64_t>(std::stoll(args[5])));
      }
      figure.add("seconds", std::chrono::duration<double>(Clock::now() - started).count()).emit();
    } else if (command == "agreement" && args.size() >= 3) {
      agreement(args[1], args[2], optional(3));
    } else if (command == "gradients" && args.size() >= 3) {
      gradients(args[1], args[2], optional(3));
    } else if (command == "train" && args.size() >= 6) {
      train(args[1], args[2], optional(3), std::stoll(args[4]), std::stoll(args[5]));
    } else {
      return usage();
    }
  } catch (const MissingDevice& error) {
    std::cerr << "selfplay-gpu-check: " << error.what() << std::endl;
    Figure("error").add("command", args[0]).add("message", error.what()).emit();
    return 3;
  } catch (const std::exception& error) {
    std::cerr << "selfplay-gpu-check " << args[0] << ": " << error.what() << std::endl;
    Figure("error").add("command", args[0]).add("args", [&]() {
      std::string joined;
      for (const std::string& a : args) joined += (joined.empty() ? "" : " ") + a;
      return joined;
    }()).add("message", error.what()).emit();
    return 1;
  }
  return 0;
}
