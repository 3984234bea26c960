#include "ggml-policy.h"

#include "ggml-adamw-kernel.h"
#include "ggml-dequantising-product-kernel.h"
#include "ggml-graph-measure.h"
#include "ggml-product-kernels.h"
#include "ggml-softmax-kernel.h"

#include <cfloat>
#include <cmath>
#include <stdexcept>

#include "../devices/ggml-devices.h"

struct GgmlPolicy::Pending {
  explicit Pending(const GgmlLibrary& library) : ggml(library) {}
  Pending(const Pending&) = delete;
  Pending& operator=(const Pending&) = delete;
  const GgmlLibrary& ggml;
  ggml_context* context = nullptr;
  GgmlForwardGraph graph;
  /** Forward, loss, backward and accumulation: what gallocr allocates. */
  ggml_cgraph* full = nullptr;
  int forwardNodes = 0;
  /** Nodes after the forward pass's outputs: the loss, the backward pass and the accumulation. */
  ggml_cgraph backwardNodes{};
  ggml_tensor* logprobGradients = nullptr;
  ggml_tensor* entropyGradients = nullptr;
  ggml_tensor* lossGradient = nullptr;
  size_t targets = 0;
  /**
   * Computed through the scheduler (a node on the CPU, see GgmlGraphRunner): the forward pass was a graph of its
   * own, and the backward builds the chunk's graph afresh and computes it whole, forward nodes again: the scheduler
   * keeps no allocation from one graph to the next, and tensors it once allocated keep their data pointers.
   */
  bool scheduled = false;
  bool entropy = false;
  GgmlChunk chunk;

  ~Pending() {
    if (context != nullptr) ggml.ggml_free(context);
  }
};

namespace {

ggml_context* newGraphContext(const GgmlLibrary& ggml, size_t graphSize, int graphs) {
  ggml_init_params parameters{ggml.ggml_tensor_overhead() * graphSize * 2 + ggml.ggml_graph_overhead_custom(graphSize, true) * graphs, nullptr, true};
  ggml_context* context = ggml.ggml_init(parameters);
  if (context == nullptr) throw std::runtime_error("ggml_init failed for a graph context");
  return context;
}

std::vector<float> readAll(const GgmlLibrary& ggml, const ggml_tensor* tensor) {
  std::vector<float> values(static_cast<size_t>(ggml.ggml_nelements(tensor)));
  ggml.ggml_backend_tensor_get(tensor, values.data(), 0, values.size() * sizeof(float));
  return values;
}

}  // namespace

GgmlPolicy::GgmlPolicy(GgmlPolicyConfiguration configurationIn) : ggml(ggmlLibrary()), configuration(std::move(configurationIn)) {
  if (configuration.threads < 1) throw std::invalid_argument("threads: expected at least 1");
  device = findGgmlDevice(ggml, configuration.device);
  ggml_backend_dev_t cpuDevice = ggml.ggml_backend_dev_by_type(GGML_BACKEND_DEVICE_TYPE_CPU);
  if (cpuDevice == nullptr) throw std::runtime_error("ggml has no CPU backend loaded (node-llama-cpp's libggml-cpu)");
  backend = ggml.ggml_backend_dev_init(device, nullptr);
  if (backend == nullptr) throw std::runtime_error("ggml could not start the device " + configuration.device);
  try {
    const bool onCpu = device == cpuDevice;
    if (!onCpu) {
      cpuBackend = ggml.ggml_backend_dev_init(cpuDevice, nullptr);
      if (cpuBackend == nullptr) throw std::runtime_error("ggml could not start its CPU backend (the device's fallback)");
    }
    auto setThreads = reinterpret_cast<ggml_backend_set_n_threads_t>(
        ggml.ggml_backend_reg_get_proc_address(ggml.ggml_backend_dev_backend_reg(cpuDevice), "ggml_backend_set_n_threads"));
    if (setThreads != nullptr) setThreads(onCpu ? backend : cpuBackend, configuration.threads);
    // Our kernels are CPU code: they read and write tensor data through host pointers on the threads of
    // ggml CPU's graph_compute, which is the only backend that runs a GGML_OP_CUSTOM. A policy on any other
    // device (a GPU's tensors live in its memory) must get ggml's own operations, so the kernels are
    // offered only when the backend computing the graphs is ggml's CPU device, whatever the option says.
    if (onCpu && configuration.cpuKernels == GgmlCpuKernels::automatic) customOperation = ggml_out_product::customOperation(ggml);
    // The dequantising backward product has a portable tile: every CPU gets it unless ggml's own operations were asked for.
    if (onCpu && configuration.cpuKernels != GgmlCpuKernels::portable) dequantisingOperation = ggml_out_product::boundCustomOperation(ggml);
    runner = std::make_unique<GgmlGraphRunner>(ggml, backend, cpuBackend, configuration.cpuOperations, graphSize());
    weights = loadGgmlPolicyWeights(ggml, configuration, backend);
    if (configuration.trainable) {
      const size_t count = weights.trainable.size();
      ggml_init_params parameters{ggml.ggml_tensor_overhead() * count * 2, nullptr, true};
      gradientContext = ggml.ggml_init(parameters);
      momentContext = ggml.ggml_init(parameters);
      if (gradientContext == nullptr || momentContext == nullptr) throw std::runtime_error("ggml_init failed for the optimizer's context");
      for (ggml_tensor* weight : weights.trainable) {
        OptimizerTensors tensors{ggml.ggml_dup_tensor(gradientContext, weight), ggml.ggml_dup_tensor(momentContext, weight),
                                 ggml.ggml_dup_tensor(momentContext, weight)};
        optimizer.emplace(weight, tensors);
      }
      gradientBuffer = ggml.ggml_backend_alloc_ctx_tensors(gradientContext, backend);
      momentBuffer = ggml.ggml_backend_alloc_ctx_tensors(momentContext, backend);
      if (gradientBuffer == nullptr || momentBuffer == nullptr) throw std::runtime_error("the backend could not allocate the optimizer state");
      ggml.ggml_backend_buffer_clear(gradientBuffer, 0);
      ggml.ggml_backend_buffer_clear(momentBuffer, 0);
    }
    chunkAllocator = ggml.ggml_gallocr_new(ggml.ggml_backend_get_default_buffer_type(backend));
    stepAllocator = ggml.ggml_gallocr_new(ggml.ggml_backend_get_default_buffer_type(backend));
  } catch (...) {
    release();
    throw;
  }
}

GgmlPolicy::~GgmlPolicy() { release(); }

void GgmlPolicy::release() {
  pending.reset();
  runner.reset();
  if (chunkAllocator != nullptr) ggml.ggml_gallocr_free(chunkAllocator);
  if (stepAllocator != nullptr) ggml.ggml_gallocr_free(stepAllocator);
  chunkAllocator = stepAllocator = nullptr;
  if (gradientBuffer != nullptr) ggml.ggml_backend_buffer_free(gradientBuffer);
  if (momentBuffer != nullptr) ggml.ggml_backend_buffer_free(momentBuffer);
  gradientBuffer = momentBuffer = nullptr;
  if (gradientContext != nullptr) ggml.ggml_free(gradientContext);
  if (momentContext != nullptr) ggml.ggml_free(momentContext);
  gradientContext = momentContext = nullptr;
  freeGgmlPolicyWeights(ggml, weights);
  if (backend != nullptr) ggml.ggml_backend_free(backend);
  if (cpuBackend != nullptr) ggml.ggml_backend_free(cpuBackend);
  backend = cpuBackend = nullptr;
}

size_t GgmlPolicy::graphSize() const {
  // Forward ~30 nodes a block, the backward about four times that; generous, since a full graph aborts.
  return 2048 + 512 * static_cast<size_t>(configuration.blockCount);
}

void GgmlPolicy::allocateAndCompute(ggml_cgraph* graph, ggml_gallocr_t allocator, const std::function<void()>& setInputs) {
  if (!runner->runsWhole(graph)) return runner->computeScheduled(graph, setInputs);
  if (!ggml.ggml_gallocr_alloc_graph(allocator, graph)) throw std::runtime_error("the device could not allocate a graph's compute buffer");
  setInputs();
  runner->computeDirect(graph);
}

void GgmlPolicy::dropPending() { pending.reset(); }

std::unique_ptr<GgmlPolicy::Pending> GgmlPolicy::buildChunk(const GgmlChunk& chunk, bool entropy, bool gradients, bool keepForward) {
  checkGgmlChunk(chunk, configuration);
  if (gradients && !configuration.trainable) throw std::invalid_argument("this policy was loaded for forward passes only (trainable: false)");
  const size_t size = graphSize();
  auto state = std::make_unique<Pending>(ggml);
  state->context = newGraphContext(ggml, size, 8);
  ggml_context* context = state->context;
  state->graph = buildGgmlForwardGraph(ggml, context, weights, configuration, chunk, entropy);
  const GgmlForwardGraph& graph = state->graph;
  ggml_cgraph* full = ggml.ggml_new_graph_custom(context, size, gradients);
  ggml.ggml_build_forward_expand(full, graph.logprobs);
  if (graph.entropy != nullptr) ggml.ggml_build_forward_expand(full, graph.entropy);
  state->forwardNodes = ggml.ggml_graph_n_nodes(full);
  const int64_t targets = static_cast<int64_t>(chunk.targetRows.size());
  if (gradients) {
    // Every softmax output is kept from gallocr's reuse (marked output): SOFT_MAX_BACK may be placed in
    // place of either parent, and the CPU kernel, run in place of its y, overwrites y with dy before it
    // multiplies by y. Without this the output layer's softmax gradient came out wrong whenever its dy was
    // a view gallocr would not reuse (no entropy term): gradients off by orders of magnitude.
    // With keepForward every forward node is kept (see allocatableChunk).
    for (int index = 0; index < state->forwardNodes; index++) {
      ggml_tensor* node = ggml.ggml_graph_node(full, index);
      if (node->op == GGML_OP_SOFT_MAX || keepForward) ggml.ggml_set_output(node);
    }
    // The loss whose gradient is the policy loss's: Σ g·logprob (+ Σ h·H), with g and h the loss's
    // derivatives at this chunk's values, computed by the caller from the forward outputs.
    state->logprobGradients = ggml.ggml_new_tensor_2d(context, GGML_TYPE_F32, 1, targets);
    ggml.ggml_set_input(state->logprobGradients);
    ggml_tensor* loss = ggml.ggml_sum(context, ggml.ggml_mul(context, graph.logprobs, state->logprobGradients));
    if (graph.entropy != nullptr) {
      state->entropyGradients = ggml.ggml_new_tensor_2d(context, GGML_TYPE_F32, 1, targets);
      ggml.ggml_set_input(state->entropyGradients);
      loss = ggml.ggml_add(context, loss, ggml.ggml_sum(context, ggml.ggml_mul(context, graph.entropy, state->entropyGradients)));
    }
    ggml.ggml_set_loss(loss);
    ggml.ggml_build_forward_expand(full, loss);
    ggml.ggml_build_backward_expand(context, full, nullptr);
    for (const auto& [weight, tensors] : optimizer) {
      ggml_tensor* gradient = ggml.ggml_graph_get_grad(full, weight);
      if (gradient != nullptr) ggml.ggml_build_forward_expand(full, ggml.ggml_add_inplace(context, tensors.gradient, gradient));
    }
    state->lossGradient = ggml.ggml_graph_get_grad_acc(full, loss);
    if (state->lossGradient == nullptr) throw std::runtime_error("ggml built no gradient for the loss");
    // The frozen quantised matrices' out_prods first (a LoRA's base), then the f32 ones.
    useDequantisingProductKernel(ggml, dequantisingOperation, customOperation != nullptr, context, full, state->forwardNodes, ggml.ggml_graph_n_nodes(full));
    full = fastBackwardProducts(ggml, customOperation, context, full, state->forwardNodes, size, weights.transposedCopies);
  }
  // Built on the matrices out_prod can read; the forward products then read the engine's copies.
  patchForwardProducts(ggml, weights, full, state->forwardNodes);
  // Quantised bases keep every forward product ggml's: their products quantise their input, which the engine's
  // exact arithmetic (engine-order attention) is there to reproduce bit for bit.
  if (!weights.engineOrderAttention) {
    full = forwardProductsByKernel(ggml, customOperation, context, full, state->forwardNodes, size);
    useSoftmaxKernel(ggml, customOperation, context, full, state->forwardNodes);
  }
  state->full = full;
  state->targets = static_cast<size_t>(targets);
  return state;
}

std::unique_ptr<GgmlPolicy::Pending> GgmlPolicy::allocatableChunk(const GgmlChunk& chunk, bool entropy, bool gradients, size_t* bytes) {
  // A graph's allocation depends on its shape alone, so each shape is measured once (the training step's chunks repeat them).
  const GraphShape shape{chunk.tokens.size(), chunk.targetRows.size(), entropy, gradients, !chunk.logitOffsets.empty()};
  const auto known = keepsForward.find(shape);
  if (known != keepsForward.end() && bytes == nullptr) return buildChunk(chunk, entropy, gradients, known->second);
  const ggml_backend_buffer_type_t bufferType = ggml.ggml_backend_get_default_buffer_type(backend);
  size_t measured = 0;
  std::string failure;
  for (const bool keepForward : {false, true}) {
    // gallocr holds at most 256 holes between live tensors (MAX_FREE_BLOCKS) and aborts past that. The forward's
    // transients, freed between the activations the backward keeps, leave a hole each; which shapes reach the
    // limit depends on best-fit reuse (SmolLM2's 30 blocks under a rank-32 LoRA did at 104 packed tokens and 71
    // targets). Kept, the forward allocates at the end of the buffer and only the backward's short-lived tensors
    // are freed, for more memory (2.6 times the compute buffer on that chunk), so only such a shape pays it.
    if (keepForward && !gradients) break;
    std::unique_ptr<Pending> state = buildChunk(chunk, entropy, gradients, keepForward);
    if (measureGraph(ggml, bufferType, state->full, measured, failure)) {
      keepsForward[shape] = keepForward;
      if (bytes != nullptr) *bytes = measured;
      return state;
    }
  }
  throw std::runtime_error("ggml's graph allocator cannot place the graph of a chunk of " + std::to_string(chunk.tokens.size()) + " packed tokens (" +
                           failure + "): a smaller maxChunkTokens packs a different graph");
}

size_t GgmlPolicy::estimate(const GgmlChunk& chunk, bool entropy, bool gradients) {
  std::lock_guard<std::mutex> lock(mutex);
  size_t bytes = 0;
  allocatableChunk(chunk, entropy, gradients, &bytes);
  return bytes;
}

GgmlForwardOutputs GgmlPolicy::forward(const GgmlChunk& chunk, bool entropy, bool gradients) {
  std::lock_guard<std::mutex> lock(mutex);
  dropPending();
  std::unique_ptr<Pending> state = allocatableChunk(chunk, entropy, gradients, nullptr);
  const size_t size = graphSize();
  ggml_context* context = state->context;
  ggml_cgraph* full = state->full;
  const GgmlForwardGraph& graph = state->graph;
  const auto setInputs = [&]() { setGgmlForwardInputs(ggml, graph, chunk, configuration.vocabularySize); };
  if (runner->runsWhole(full)) {
    if (!ggml.ggml_gallocr_alloc_graph(chunkAllocator, full)) {
      throw std::runtime_error("the device could not allocate the compute buffer for a chunk of " + std::to_string(chunk.tokens.size()) + " tokens");
    }
    setInputs();
    // Node ranges as ggml's graph views: they share the whole graph's use counts, which a backend's operation fusion
    // reads (ggml-vulkan fuses a node into its reader only when nothing else reads it — the backward does).
    ggml_cgraph forwardNodes = ggml.ggml_graph_view(full, 0, state->forwardNodes);
    runner->computeDirect(gradients ? &forwardNodes : full);
    if (gradients) state->backwardNodes = ggml.ggml_graph_view(full, state->forwardNodes, ggml.ggml_graph_n_nodes(full));
  } else {
    ggml_cgraph* forwardOnly = full;
    if (gradients) {
      // The forward pass as a graph of its own, leaves included (the scheduler places leaves too).
      forwardOnly = ggml.ggml_new_graph_custom(context, size, false);
      ggml.ggml_build_forward_expand(forwardOnly, graph.logprobs);
      if (graph.entropy != nullptr) ggml.ggml_build_forward_expand(forwardOnly, graph.entropy);
      state->scheduled = true;
      state->entropy = entropy;
      state->chunk = chunk;
    }
    runner->computeScheduled(forwardOnly, setInputs);
  }
  GgmlForwardOutputs outputs;
  outputs.logprobs = readAll(ggml, graph.logprobs);
  if (graph.entropy != nullptr) outputs.entropy = readAll(ggml, graph.entropy);
  if (gradients) pending = std::move(state);
  return outputs;
}

void GgmlPolicy::backward(const std::vector<float>& logprobGradients, const std::vector<float>& entropyGradients) {
  std::lock_guard<std::mutex> lock(mutex);
  if (!pending) throw std::invalid_argument("backward: no forward pass with gradients is waiting for its backward pass");
  std::unique_ptr<Pending> state = std::move(pending);
  if (logprobGradients.size() != state->targets) {
    throw std::invalid_argument("backward: expected " + std::to_string(state->targets) + " logprob gradients, got " + std::to_string(logprobGradients.size()));
  }
  if ((state->entropyGradients != nullptr) != !entropyGradients.empty() ||
      (state->entropyGradients != nullptr && entropyGradients.size() != state->targets)) {
    throw std::invalid_argument("backward: entropy gradients are needed exactly when the forward pass computed entropies, one per target");
  }
  const auto setGradients = [&](const Pending& graph) {
    const float one = 1.0f;
    ggml.ggml_backend_tensor_set(graph.lossGradient, &one, 0, sizeof(float));
    ggml.ggml_backend_tensor_set(graph.logprobGradients, logprobGradients.data(), 0, logprobGradients.size() * sizeof(float));
    if (graph.entropyGradients != nullptr) {
      ggml.ggml_backend_tensor_set(graph.entropyGradients, entropyGradients.data(), 0, entropyGradients.size() * sizeof(float));
    }
  };
  if (!state->scheduled) {
    setGradients(*state);
    return runner->computeDirect(&state->backwardNodes);
  }
  const std::unique_ptr<Pending> fresh = buildChunk(state->chunk, state->entropy, true, false);
  runner->computeScheduled(fresh->full, [&]() {
    setGgmlForwardInputs(ggml, fresh->graph, state->chunk, configuration.vocabularySize);
    setGradients(*fresh);
  });
}

GgmlStepResult GgmlPolicy::step(const GgmlAdamWStep& settings) {
  std::lock_guard<std::mutex> lock(mutex);
  if (!configuration.trainable) throw std::invalid_argument("this policy was loaded for forward passes only (trainable: false)");
  if (!(settings.maxGradientNorm > 0) || settings.step < 1 || !(settings.learningRate >= 0) || !(settings.beta1 >= 0 && settings.beta1 < 1) ||
      !(settings.beta2 >= 0 && settings.beta2 < 1) || !(settings.epsilon > 0) || !(settings.weightDecay >= 0)) {
    throw std::invalid_argument("step: expected maxGradientNorm > 0, step ≥ 1, learningRate ≥ 0, β1 and β2 in [0, 1), ε > 0, weightDecay ≥ 0");
  }
  dropPending();
  const size_t size = 256 + 8 * optimizer.size();
  std::unique_ptr<ggml_context, void (*)(ggml_context*)> context(newGraphContext(ggml, size, 2), ggml.ggml_free);
  ggml_context* ctx = context.get();
  // First the global norm and the clipping divisor, max(1, (‖g‖ + 1e-6) / maxNorm): the same factor as
  // clipGradientNorm's min(1, maxNorm / (‖g‖ + 1e-6)).
  ggml_cgraph* normGraph = ggml.ggml_new_graph_custom(ctx, size, false);
  ggml_tensor* squaredNorm = nullptr;
  for (const auto& [weight, tensors] : optimizer) {
    ggml_tensor* sum = ggml.ggml_sum(ctx, ggml.ggml_sqr(ctx, tensors.gradient));
    squaredNorm = squaredNorm == nullptr ? sum : ggml.ggml_add(ctx, squaredNorm, sum);
  }
  ggml_tensor* divisor = ggml.ggml_clamp(
      ctx, ggml.ggml_scale_bias(ctx, ggml.ggml_sqrt(ctx, squaredNorm), 1.0f / settings.maxGradientNorm, 1e-6f / settings.maxGradientNorm), 1.0f, FLT_MAX);
  ggml.ggml_set_output(squaredNorm);
  ggml.ggml_set_output(divisor);
  ggml.ggml_build_forward_expand(normGraph, divisor);
  allocateAndCompute(normGraph, stepAllocator, []() {});
  float squared = 0;
  float divisorValue = 1;
  ggml.ggml_backend_tensor_get(squaredNorm, &squared, 0, sizeof(float));
  ggml.ggml_backend_tensor_get(divisor, &divisorValue, 0, sizeof(float));
  const double norm = std::sqrt(static_cast<double>(squared));
  if (!std::isfinite(norm)) {
    ggml.ggml_backend_buffer_clear(gradientBuffer, 0);
    return {norm, false};
  }
  // Then AdamW on the gradients divided by that divisor (given back as an input, the same float), or as they
  // are when it is 1: dividing by 1 changes no value, and skipping it saves a pass over every gradient.
  ggml_cgraph* graph = ggml.ggml_new_graph_custom(ctx, size, false);
  ggml_tensor* parameters = ggml.ggml_new_tensor_1d(ctx, GGML_TYPE_F32, 7);
  ggml.ggml_set_input(parameters);
  const bool clip = divisorValue != 1.0f;
  ggml_tensor* divisorInput = nullptr;
  if (clip) {
    divisorInput = ggml.ggml_new_tensor_1d(ctx, GGML_TYPE_F32, 1);
    ggml.ggml_set_input(divisorInput);
  }
  for (const auto& [weight, tensors] : optimizer) {
    ggml_tensor* gradient = clip ? ggml.ggml_div(ctx, tensors.gradient, divisorInput) : tensors.gradient;
    ggml.ggml_build_forward_expand(
        graph, adamwStep(ggml, customOperation, ctx, const_cast<ggml_tensor*>(weight), gradient, tensors.firstMoment, tensors.secondMoment, parameters));
  }
  const double step = static_cast<double>(settings.step);
  // ggml's AdamW: w ← w·(1 − α·λ) − α·m̂/(√v̂ + ε), m̂ = m·beta1h, v̂ = v·beta2h.
  const float values[7] = {settings.learningRate,
                           settings.beta1,
                           settings.beta2,
                           settings.epsilon,
                           settings.weightDecay,
                           static_cast<float>(1.0 / (1.0 - std::pow(static_cast<double>(settings.beta1), step))),
                           static_cast<float>(1.0 / (1.0 - std::pow(static_cast<double>(settings.beta2), step)))};
  allocateAndCompute(graph, stepAllocator, [&]() {
    ggml.ggml_backend_tensor_set(parameters, values, 0, sizeof(values));
    if (clip) ggml.ggml_backend_tensor_set(divisorInput, &divisorValue, 0, sizeof(float));
  });
  ggml.ggml_backend_buffer_clear(gradientBuffer, 0);
  return {norm, true};
}

void GgmlPolicy::clearGradients() {
  std::lock_guard<std::mutex> lock(mutex);
  dropPending();
  if (gradientBuffer != nullptr) ggml.ggml_backend_buffer_clear(gradientBuffer, 0);
}

std::vector<GgmlTensorInfo> GgmlPolicy::tensors() const {
  std::lock_guard<std::mutex> lock(mutex);
  std::vector<GgmlTensorInfo> infos;
  for (const ggml_tensor* tensor : weights.all) {
    GgmlTensorInfo info{tensor->name, {}, ggml.ggml_type_name(tensor->type), optimizer.count(tensor) > 0};
    for (int dimension = 0; dimension < GGML_MAX_DIMS; dimension++) {
      if (dimension < 2 || tensor->ne[dimension] != 1) info.shape.push_back(tensor->ne[dimension]);
    }
    if (info.shape.size() == 2 && info.shape[1] == 1) info.shape.pop_back();
    infos.push_back(info);
  }
  return infos;
}

ggml_tensor* GgmlPolicy::find(const std::string& name, GgmlTensorKind kind) const {
  for (ggml_tensor* tensor : weights.all) {
    if (name != tensor->name) continue;
    if (kind == GgmlTensorKind::weight) {
      if (tensor->type != GGML_TYPE_F32) throw std::invalid_argument(name + " is " + ggml.ggml_type_name(tensor->type) + "; only f32 tensors are read and written");
      return tensor;
    }
    const auto found = optimizer.find(tensor);
    if (found == optimizer.end()) throw std::invalid_argument(name + " is not trained, so it has no gradient or moments");
    if (kind == GgmlTensorKind::gradient) return found->second.gradient;
    return kind == GgmlTensorKind::firstMoment ? found->second.firstMoment : found->second.secondMoment;
  }
  throw std::invalid_argument("the model has no tensor " + name);
}

std::vector<float> GgmlPolicy::read(const std::string& name, GgmlTensorKind kind) {
  std::lock_guard<std::mutex> lock(mutex);
  return readAll(ggml, find(name, kind));
}

void GgmlPolicy::write(const std::string& name, GgmlTensorKind kind, const std::vector<float>& values) {
  std::lock_guard<std::mutex> lock(mutex);
  ggml_tensor* tensor = find(name, kind);
  if (static_cast<int64_t>(values.size()) != ggml.ggml_nelements(tensor)) {
    throw std::invalid_argument(name + ": expected " + std::to_string(ggml.ggml_nelements(tensor)) + " values, got " + std::to_string(values.size()));
  }
  ggml.ggml_backend_tensor_set(tensor, values.data(), 0, values.size() * sizeof(float));
}

size_t GgmlPolicy::bytes() const {
  std::lock_guard<std::mutex> lock(mutex);
  size_t total = ggml.ggml_backend_buffer_get_size(weights.buffer);
  for (ggml_backend_buffer_t buffer : weights.extraBuffers) total += ggml.ggml_backend_buffer_get_size(buffer);
  if (weights.twinBuffer != nullptr) total += ggml.ggml_backend_buffer_get_size(weights.twinBuffer);
  if (weights.adapterBuffer != nullptr) total += ggml.ggml_backend_buffer_get_size(weights.adapterBuffer);
  if (weights.transposedBuffer != nullptr) total += ggml.ggml_backend_buffer_get_size(weights.transposedBuffer);
  total += runner->scheduledBytes();
  if (gradientBuffer != nullptr) total += ggml.ggml_backend_buffer_get_size(gradientBuffer) + ggml.ggml_backend_buffer_get_size(momentBuffer);
  return total + ggml.ggml_gallocr_get_buffer_size(chunkAllocator, 0) + ggml.ggml_gallocr_get_buffer_size(stepAllocator, 0);
}

std::string GgmlPolicy::deviceName() const { return ggml.ggml_backend_dev_name(device); }

std::string GgmlPolicy::deviceDescription() const { return ggml.ggml_backend_dev_description(device); }

void GgmlPolicy::deviceMemory(size_t& free, size_t& total) const { ggml.ggml_backend_dev_memory(device, &free, &total); }

int64_t GgmlPolicy::fallbackNodes() const {
  std::lock_guard<std::mutex> lock(mutex);
  return runner->fallbackNodes();
}
