// The model's tensors in one backend buffer, named as in the GGUF file.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "../ggml-library.h"
#include "ggml-policy-configuration.h"

struct GgmlBlockWeights {
  ggml_tensor* attentionNorm = nullptr;
  ggml_tensor* query = nullptr;
  ggml_tensor* key = nullptr;
  ggml_tensor* value = nullptr;
  /** qwen2's q/k/v biases; null when the file has none. */
  ggml_tensor* queryBias = nullptr;
  ggml_tensor* keyBias = nullptr;
  ggml_tensor* valueBias = nullptr;
  ggml_tensor* attentionOutput = nullptr;
  ggml_tensor* feedForwardNorm = nullptr;
  ggml_tensor* gate = nullptr;
  ggml_tensor* up = nullptr;
  ggml_tensor* down = nullptr;
};

/** One adapted matrix's LoRA factors. */
struct GgmlLoraPair {
  ggml_tensor* a = nullptr;
  ggml_tensor* b = nullptr;
};

struct GgmlPolicyWeights {
  ggml_context* context = nullptr;
  ggml_backend_buffer_t buffer = nullptr;
  ggml_tensor* tokenEmbedding = nullptr;
  ggml_tensor* outputNorm = nullptr;
  /** `output.weight`, or the token embedding when the file ties them. */
  ggml_tensor* output = nullptr;
  /** llama's `rope_freqs.weight` (per-pair frequency divisors); null when absent. */
  ggml_tensor* ropeFrequencies = nullptr;
  std::vector<GgmlBlockWeights> blocks;
  /** Every tensor loaded: the model's, then the adapter's. */
  std::vector<ggml_tensor*> all;
  /** What the optimizer trains: every weight but rope_freqs (full), or the LoRA factors; empty when not trainable. */
  std::vector<ggml_tensor*> trainable;
  /** LoRA factors by the base matrix they adapt. */
  std::map<const ggml_tensor*, GgmlLoraPair> lora;
  ggml_context* adapterContext = nullptr;
  ggml_backend_buffer_t adapterBuffer = nullptr;
  /** Bytes of f32 copies of f16/bf16 matrices kept because ggml's CPU out_prod cannot read them (LoRA training). */
  size_t convertedBytes = 0;
  /**
   * The copy the forward pass multiplies by, where it differs from the tensor the graph is built on:
   * with a trainable adapter, a matrix the engine keeps in a CPU extra buffer type (CPU_REPACK's
   * interleaved q4_0/q4_K …) or as f16/bf16 is held twice — as the engine holds it, for the forward
   * product, and as out_prod can read it (plain, f32 for f16/bf16), for the backward's. patchForwardProducts
   * swaps the forward copies in after the backward pass is built.
   */
  std::map<const ggml_tensor*, ggml_tensor*> forwardCopies;
  /** Contexts and buffers of tensors in extra buffer types (forward copies, or the only copy when not trainable). */
  std::vector<ggml_context*> extraContexts;
  std::vector<ggml_backend_buffer_t> extraBuffers;
  /** A context for forward copies in the plain CPU buffer type (f16/bf16 twins of f32 copies). */
  ggml_context* twinContext = nullptr;
  ggml_backend_buffer_t twinBuffer = nullptr;
  /** Names of the matrices held in an extra buffer type, with that type's name (e.g. CPU_REPACK). */
  std::vector<std::pair<std::string, std::string>> extraPlacements;
  /**
   * Whether the forward graph lays attention out in the engine's order (ggml-attention-layout.h): true
   * when a block or output matrix is stored quantised (any type but f32, f16, bf16). Chosen once, here:
   * a quantised product quantises its input (q8_0 activations), so a last-bit difference in attention's
   * sums moves logprobs by up to ~1e-2 and only the engine's order agrees with it; on f32/f16/bf16 bases
   * the plain layout already agrees to ~1e-6 (f32) and is much cheaper on rows where completions share
   * their prompt: keys are the row's tokens, once, rather than a 64-aligned region per completion holding
   * its own copy of the prompt's keys (the RL update took ~2× as long in the engine order).
   */
  bool engineOrderAttention = false;
  /**
   * Off the CPU (a CUDA or Vulkan device), a trainable adapter's gradient crosses each frozen matrix W
   * of its base as Wᵀ·dy: ggml's backward builds it as out_prod(W, dyᵀ), which those devices take only
   * on f32 (CUDA) and contiguous f32 (Vulkan) operands. So each frozen matrix of a product is kept a
   * second time on the device, dequantised and transposed (f32 [out, in]), and the backward's out_prod
   * becomes the mul_mat of that copy and dy (ggml-product-kernels.h): exact values, at 4 bytes a weight.
   */
  std::map<const ggml_tensor*, ggml_tensor*> transposedCopies;
  ggml_context* transposedContext = nullptr;
  ggml_backend_buffer_t transposedBuffer = nullptr;
};

/**
 * Reads the model's tensors into a buffer of `backend` (ggml's CPU device, or any other: see
 * transposedCopies), after checking each
 * one's presence, shape and type against `configuration`: a mismatch throws
 * std::invalid_argument naming the tensor, never reaches a GGML_ASSERT.
 * Trainable weights are marked as ggml parameters.
 */
GgmlPolicyWeights loadGgmlPolicyWeights(const GgmlLibrary& ggml, const GgmlPolicyConfiguration& configuration, ggml_backend_t backend);

void freeGgmlPolicyWeights(const GgmlLibrary& ggml, GgmlPolicyWeights& weights);

/** Makes the forward matrix products of `graph`'s first `nodes` nodes read the forward copies (see forwardCopies). */
void patchForwardProducts(const GgmlLibrary& ggml, const GgmlPolicyWeights& weights, ggml_cgraph* graph, int nodes);
