// A llama/qwen2 policy on ggml: forward passes over packed chunks, the
// backward pass of a loss given per token as ∂loss/∂logprob and ∂loss/∂entropy,
// gradient accumulation over chunks, and AdamW (its moments owned here,
// global-norm clipping in the graph). No N-API in here: ggml-policy-object
// wraps it for JavaScript.
#pragma once

#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <tuple>
#include <vector>

#include "ggml-forward-graph.h"
#include "ggml-graph-runner.h"
#include "ggml-policy-configuration.h"
#include "ggml-policy-weights.h"

struct GgmlForwardOutputs {
  std::vector<float> logprobs;
  /** Empty unless asked for. */
  std::vector<float> entropy;
};

/** One AdamW step; the same update as src/training/tfjs/optimizer/adamw.ts. */
struct GgmlAdamWStep {
  float learningRate;
  float beta1;
  float beta2;
  float epsilon;
  float weightDecay;
  /** Gradients are scaled by min(1, maxGradientNorm / (‖g‖ + 1e-6)) first, as clipGradientNorm does. */
  float maxGradientNorm;
  /** Steps taken including this one: the bias corrections use β^step. */
  int64_t step;
};

struct GgmlStepResult {
  /** Global L2 norm of the accumulated gradients before clipping. */
  double gradientNorm;
  /** False when the norm was not finite: nothing changed. */
  bool applied;
};

struct GgmlTensorInfo {
  std::string name;
  std::vector<int64_t> shape;
  std::string type;
  bool trainable;
};

/** Which of a weight's tensors: the weight, its accumulated gradient, or AdamW's first and second moments. */
enum class GgmlTensorKind { weight, gradient, firstMoment, secondMoment };

class GgmlPolicy {
 public:
  /** Loads and checks the model (std::invalid_argument for what the caller can fix). */
  explicit GgmlPolicy(GgmlPolicyConfiguration configuration);
  ~GgmlPolicy();
  GgmlPolicy(const GgmlPolicy&) = delete;
  GgmlPolicy& operator=(const GgmlPolicy&) = delete;

  /**
   * Log-probabilities (and entropies) of the chunk's targets. With
   * `gradients`, the graph and its activations stay until `backward`, which
   * must come next (another forward drops them).
   */
  GgmlForwardOutputs forward(const GgmlChunk& chunk, bool entropy, bool gradients);
  /** Bytes of the compute buffer `forward` would allocate for this chunk (nothing is allocated). */
  size_t estimate(const GgmlChunk& chunk, bool entropy, bool gradients);
  /** Adds the gradient of Σ ∂L/∂logprob·logprob + ∂L/∂H·H (the loss's own gradient) to the accumulators. */
  void backward(const std::vector<float>& logprobGradients, const std::vector<float>& entropyGradients);
  /** Clips and applies the accumulated gradients, then clears them. */
  GgmlStepResult step(const GgmlAdamWStep& settings);
  void clearGradients();

  std::vector<GgmlTensorInfo> tensors() const;
  std::vector<float> read(const std::string& name, GgmlTensorKind kind);
  void write(const std::string& name, GgmlTensorKind kind, const std::vector<float>& values);
  /** Bytes of the weights, the optimizer state and the largest compute buffer so far. */
  size_t bytes() const;
  /** Which kernels compute the graphs: "avx512" (ours, AVX-512), "generic" (our portable ones) or "portable" (ggml's own throughout). */
  std::string cpuKernels() const { return customOperation != nullptr ? "avx512" : dequantisingOperation != nullptr ? "generic" : "portable"; }
  /** The device's ggml name and description, and its free and total memory now (ggml_backend_dev_memory). */
  std::string deviceName() const;
  std::string deviceDescription() const;
  void deviceMemory(size_t& free, size_t& total) const;
  /** Graph nodes computed on the CPU although the policy is on another device, since it was loaded. */
  int64_t fallbackNodes() const;

 private:
  struct Pending;
  struct OptimizerTensors {
    ggml_tensor* gradient;
    ggml_tensor* firstMoment;
    ggml_tensor* secondMoment;
  };

  ggml_tensor* find(const std::string& name, GgmlTensorKind kind) const;
  /** The chunk's graph; `keepForward` marks every forward node an output, so gallocr frees none of them. */
  std::unique_ptr<Pending> buildChunk(const GgmlChunk& chunk, bool entropy, bool gradients, bool keepForward);
  /**
   * The chunk's graph as gallocr can place it, its compute-buffer bytes in `bytes` when given (measured then): the
   * forward's tensors kept where the usual graph would overflow gallocr's free list.
   */
  std::unique_ptr<Pending> allocatableChunk(const GgmlChunk& chunk, bool entropy, bool gradients, size_t* bytes);
  /** What a graph's allocation depends on: tokens, targets, entropy, gradients, logit offsets. */
  using GraphShape = std::tuple<size_t, size_t, bool, bool, bool>;
  /** Per shape measured, whether its graph keeps the forward's tensors (allocatableChunk). */
  std::map<GraphShape, bool> keepsForward;
  size_t graphSize() const;
  /** Allocates `graph` with `allocator` and computes it whole, on the device or, where it cannot, through the runner's scheduler. */
  void allocateAndCompute(ggml_cgraph* graph, ggml_gallocr_t allocator, const std::function<void()>& setInputs);
  void dropPending();
  /** Frees everything; safe on a partly constructed policy. */
  void release();

  const GgmlLibrary& ggml;
  const GgmlPolicyConfiguration configuration;
  ggml_backend_dev_t device = nullptr;
  ggml_backend_t backend = nullptr;
  /** ggml's CPU backend for the nodes the device cannot compute; null when the device is the CPU. */
  ggml_backend_t cpuBackend = nullptr;
  std::unique_ptr<GgmlGraphRunner> runner;
  /**
   * ggml_custom_4d, through which the graphs use our AVX-512 kernels, or null for ggml's own operations:
   * null unless the backend is ggml's CPU device (see the constructor) and the configuration allows them.
   */
  decltype(&ggml_custom_4d) customOperation = nullptr;
  /**
   * ggml_custom_4d for the backward through frozen quantised matrices (ggml-dequantising-product-kernel.h), whose
   * tile has a portable form: set on ggml's CPU device unless cpuKernels is portable, whatever the CPU.
   */
  decltype(&ggml_custom_4d) dequantisingOperation = nullptr;
  GgmlPolicyWeights weights;
  ggml_context* gradientContext = nullptr;
  ggml_context* momentContext = nullptr;
  ggml_backend_buffer_t gradientBuffer = nullptr;
  ggml_backend_buffer_t momentBuffer = nullptr;
  std::map<const ggml_tensor*, OptimizerTensors> optimizer;
  ggml_gallocr_t chunkAllocator = nullptr;
  ggml_gallocr_t stepAllocator = nullptr;
  std::unique_ptr<Pending> pending;
  mutable std::mutex mutex;
};
