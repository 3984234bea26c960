// What the trainer's forward graph is shaped by: the model's hyperparameters,
// read and checked on the TypeScript side (readPolicyConfiguration) and
// checked again here against every tensor before ggml sees one.
#pragma once

#include <cstdint>
#include <set>
#include <string>

/** Which kernels compute a policy's graphs on the CPU. */
enum class GgmlCpuKernels {
  /**
   * Our AVX-512 custom operations (f32 products, attention softmax, AdamW, the backward through quantised matrices)
   * where this CPU and ggml run them; else the portable form of the last and ggml's own operations for the rest.
   */
  automatic,
  /** What a CPU without AVX-512 gets under automatic, on any CPU: our portable kernel, ggml's own operations otherwise. */
  generic,
  /** ggml's own operations everywhere (the backward's out_prods as mul_mat of transposed copies), whatever the CPU. */
  portable,
};

struct GgmlPolicyConfiguration {
  std::string modelPath;
  /** qwen2 (true): rope pairs (i, i + d/2), llama.cpp's NEOX mode; llama (false): adjacent pairs. */
  bool neoxRope = false;
  int64_t vocabularySize = 0;
  int64_t contextLength = 0;
  int64_t embeddingLength = 0;
  int64_t blockCount = 0;
  int64_t feedForwardLength = 0;
  int64_t headCount = 0;
  int64_t headCountKv = 0;
  int64_t keyLength = 0;
  int64_t valueLength = 0;
  float ropeFrequencyBase = 10000;
  float rmsNormEpsilon = 1e-5f;
  /**
   * Without an adapter: every weight is a trainable f32 parameter. With one: the
   * adapter's factors are, over a frozen base of any type. False: forward passes only.
   */
  bool trainable = false;
  /** A llama.cpp LoRA adapter over the model (f32 `<name>.lora_a` [in, r], `.lora_b` [r, out]); empty for none. */
  std::string loraPath;
  /** What B·A·x is multiplied by: alpha / rank (as llama.cpp with adapter scale 1). */
  float loraScale = 1.0f;
  /** Threads of ggml's CPU backend: the whole graph on the CPU device, the fallback's nodes on another. */
  int32_t threads = 1;
  GgmlCpuKernels cpuKernels = GgmlCpuKernels::automatic;
  /** ggml's name of the device that holds the weights and computes the graphs: "CPU", "CUDA0", "Vulkan0" … */
  std::string device = "CPU";
  /**
   * ggml operation names (e.g. "SOFT_MAX_BACK") computed on the CPU although the device has them: a
   * check that the fallback path computes what the device would. Empty in normal use.
   */
  std::set<std::string> cpuOperations;
};
