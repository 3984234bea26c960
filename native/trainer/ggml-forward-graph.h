// The llama/qwen2 forward pass as a ggml graph, over packed sequences: several
// sequences share one row of tokens, kept apart by a block-diagonal causal
// mask and positions that restart at each sequence (no KV cache, no flash
// attention). On a quantised model the keys sit at the slots the engine's cache
// would hold them in (ggml-attention-layout.h), so the sums match the engine's
// bit for bit; otherwise each key stays at its token's row (the plain layout,
// GgmlPolicyWeights::engineOrderAttention). A sequence may continue an earlier one of its row (its
// parent): completions of one prompt then share the prompt's tokens, once. Its outputs are the log-softmax(logits / T) of chosen
// next tokens and, when asked for, the entropy of those distributions.
#pragma once

#include <cstdint>
#include <vector>

#include "../ggml-library.h"
#include "ggml-policy-configuration.h"
#include "ggml-policy-weights.h"

/**
 * Names of the plain layout's attention products (scores = mul_mat(k, q), values = mul_mat(v, softmax)):
 * there a query row sees no key of a later row, so past the diagonal the scores are masked and the
 * softmax is exactly 0 — what the product kernel may skip (ggml-product-kernels.h).
 */
#define GGML_CAUSAL_SCORES_NAME "causal_attention_scores"
#define GGML_CAUSAL_VALUES_NAME "causal_attention_values"

/** One packed row; every index is checked by checkGgmlChunk before a graph is built. */
struct GgmlChunk {
  /** The tokens of every sequence, one after another. */
  std::vector<int32_t> tokens;
  /** Tokens of each sequence; they add up to tokens.size(). */
  std::vector<int32_t> sequenceLengths;
  /**
   * Empty, or one per sequence: the earlier sequence of this row that it continues, −1 for none.
   * A continuing sequence's positions follow its parent's last one, and its tokens see all of its
   * parent's (and their ancestors') tokens as well as its own up to themselves.
   */
  std::vector<int32_t> sequenceParents;
  /** Row (index into tokens) whose logits score each target; the target is the token that follows it. */
  std::vector<int32_t> targetRows;
  std::vector<int32_t> targetTokens;
  /** Sampling temperature of each target (> 0). */
  std::vector<float> temperatures;
  /**
   * Empty, or targets × vocabulary values added to each target's logits before the temperature:
   * a constrained Step's logit bias where its grammar allowed the token, a large negative number
   * where it did not (the masked distribution the engine sampled from).
   */
  std::vector<float> logitOffsets;
};

struct GgmlForwardGraph {
  ggml_tensor* tokens = nullptr;
  ggml_tensor* positions = nullptr;
  /** [slots]: the token row each key slot reads (ggmlAttentionLayout); null in the plain layout. */
  ggml_tensor* keyRows = nullptr;
  /** [slots, tokens]; slots = tokens in the plain layout. */
  ggml_tensor* mask = nullptr;
  /** [tokens]: 1 for rows the engine decoded one at a time, 0 for prompt rows; batchedRows is 1 − it. Null in the plain layout. */
  ggml_tensor* decodedRows = nullptr;
  ggml_tensor* batchedRows = nullptr;
  ggml_tensor* targetRows = nullptr;
  /** row · vocabulary + token, into the flattened probabilities. */
  ggml_tensor* targetIndices = nullptr;
  /** [vocabulary, targets], or null when the chunk has no constrained target. */
  ggml_tensor* logitOffsets = nullptr;
  /** [1, targets]: each target's sampling temperature; null when every one is 1 (nothing to divide by). */
  ggml_tensor* temperatures = nullptr;
  /** [1, targets] */
  ggml_tensor* logprobs = nullptr;
  /** [1, targets], or null when not asked for. */
  ggml_tensor* entropy = nullptr;
};

/** Throws std::invalid_argument naming the first field that does not fit the model. */
void checkGgmlChunk(const GgmlChunk& chunk, const GgmlPolicyConfiguration& configuration);

/** Creates the graph's tensors in `context` (no_alloc); nothing is computed or allocated. */
GgmlForwardGraph buildGgmlForwardGraph(const GgmlLibrary& ggml, ggml_context* context, const GgmlPolicyWeights& weights,
                                       const GgmlPolicyConfiguration& configuration, const GgmlChunk& chunk, bool entropy);

/** Writes the chunk's inputs into the graph's allocated input tensors. */
void setGgmlForwardInputs(const GgmlLibrary& ggml, const GgmlForwardGraph& graph, const GgmlChunk& chunk, int64_t vocabularySize);
