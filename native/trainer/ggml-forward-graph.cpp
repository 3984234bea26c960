#include "ggml-forward-graph.h"

#include "ggml-attention-layout.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

void checkGgmlChunk(const GgmlChunk& chunk, const GgmlPolicyConfiguration& configuration) {
  const int64_t tokens = static_cast<int64_t>(chunk.tokens.size());
  if (tokens == 0) throw std::invalid_argument("chunk.tokens: expected at least one token");
  for (size_t index = 0; index < chunk.tokens.size(); index++) {
    if (chunk.tokens[index] < 0 || chunk.tokens[index] >= configuration.vocabularySize) {
      throw std::invalid_argument("chunk.tokens[" + std::to_string(index) + "]: " + std::to_string(chunk.tokens[index]) +
                                  " is not a token id of this model (vocabulary " + std::to_string(configuration.vocabularySize) + ")");
    }
  }
  int64_t total = 0;
  for (int32_t length : chunk.sequenceLengths) {
    if (length <= 0) throw std::invalid_argument("chunk.sequenceLengths: every length must be positive");
    total += length;
  }
  if (total != tokens) throw std::invalid_argument("chunk.sequenceLengths add up to " + std::to_string(total) + ", not the " + std::to_string(tokens) + " tokens");
  if (!chunk.sequenceParents.empty()) {
    if (chunk.sequenceParents.size() != chunk.sequenceLengths.size()) {
      throw std::invalid_argument("chunk.sequenceParents: expected one per sequence (" + std::to_string(chunk.sequenceLengths.size()) + ")");
    }
    for (size_t index = 0; index < chunk.sequenceParents.size(); index++) {
      if (chunk.sequenceParents[index] < -1 || chunk.sequenceParents[index] >= static_cast<int32_t>(index)) {
        throw std::invalid_argument("chunk.sequenceParents[" + std::to_string(index) + "]: expected −1 or an earlier sequence of the chunk");
      }
    }
  }
  const size_t targets = chunk.targetRows.size();
  if (targets == 0) throw std::invalid_argument("chunk.targetRows: expected at least one target");
  if (chunk.targetTokens.size() != targets || chunk.temperatures.size() != targets) {
    throw std::invalid_argument("chunk.targetRows, targetTokens and temperatures must have the same length");
  }
  for (size_t index = 0; index < targets; index++) {
    if (chunk.targetRows[index] < 0 || chunk.targetRows[index] >= tokens) {
      throw std::invalid_argument("chunk.targetRows[" + std::to_string(index) + "]: not a row of the chunk's " + std::to_string(tokens) + " tokens");
    }
    if (chunk.targetTokens[index] < 0 || chunk.targetTokens[index] >= configuration.vocabularySize) {
      throw std::invalid_argument("chunk.targetTokens[" + std::to_string(index) + "]: not a token id of this model");
    }
    if (!(chunk.temperatures[index] > 0) || !std::isfinite(chunk.temperatures[index])) {
      throw std::invalid_argument("chunk.temperatures[" + std::to_string(index) + "]: expected a finite temperature > 0");
    }
  }
  if (!chunk.logitOffsets.empty()) {
    if (static_cast<int64_t>(chunk.logitOffsets.size()) != static_cast<int64_t>(targets) * configuration.vocabularySize) {
      throw std::invalid_argument("chunk.logitOffsets: expected targets × vocabulary = " +
                                  std::to_string(static_cast<int64_t>(targets) * configuration.vocabularySize) + " values");
    }
    for (float offset : chunk.logitOffsets) {
      if (std::isnan(offset) || offset == INFINITY) throw std::invalid_argument("chunk.logitOffsets: expected no NaN or +∞ (mask with a large negative number)");
    }
  }
  if (static_cast<int64_t>(targets) * configuration.vocabularySize > INT32_MAX) {
    throw std::invalid_argument("a chunk's targets × vocabulary must stay below 2^31; score fewer tokens per chunk");
  }
}

GgmlForwardGraph buildGgmlForwardGraph(const GgmlLibrary& g, ggml_context* ctx, const GgmlPolicyWeights& weights,
                                       const GgmlPolicyConfiguration& c, const GgmlChunk& chunk, bool entropy) {
  const int64_t tokens = static_cast<int64_t>(chunk.tokens.size());
  const int64_t targets = static_cast<int64_t>(chunk.targetRows.size());
  GgmlForwardGraph graph;
  auto input = [&](ggml_type type, int64_t dim0, int64_t dim1, const char* name) {
    ggml_tensor* tensor = dim1 == 0 ? g.ggml_new_tensor_1d(ctx, type, dim0) : g.ggml_new_tensor_2d(ctx, type, dim0, dim1);
    g.ggml_set_name(tensor, name);
    g.ggml_set_input(tensor);
    return tensor;
  };
  graph.tokens = input(GGML_TYPE_I32, tokens, 0, "tokens");
  graph.positions = input(GGML_TYPE_I32, tokens, 0, "positions");
  // The layout was chosen when the weights were loaded (GgmlPolicyWeights::engineOrderAttention).
  const int64_t slots = weights.engineOrderAttention ? ggmlAttentionSlots(chunk) : tokens;
  graph.mask = input(GGML_TYPE_F32, slots, tokens, "mask");
  if (weights.engineOrderAttention) {
    graph.keyRows = input(GGML_TYPE_I32, slots, 0, "key_rows");
    graph.decodedRows = input(GGML_TYPE_F32, tokens, 0, "decoded_rows");
    graph.batchedRows = input(GGML_TYPE_F32, tokens, 0, "batched_rows");
  }
  graph.targetRows = input(GGML_TYPE_I32, targets, 0, "target_rows");
  graph.targetIndices = input(GGML_TYPE_I32, targets, 0, "target_indices");
  // At temperature 1 everywhere (RL's usual setting) logits / T is the logits themselves: no division, and no
  // [vocabulary, targets] tensor for its result and another for its gradient (311 MB each at Qwen2.5's 151,936 × 512).
  const bool unitTemperatures = std::all_of(chunk.temperatures.begin(), chunk.temperatures.end(), [](float temperature) { return temperature == 1.0f; });
  if (!unitTemperatures) graph.temperatures = input(GGML_TYPE_F32, 1, targets, "temperatures");
  if (!chunk.logitOffsets.empty()) graph.logitOffsets = input(GGML_TYPE_F32, c.vocabularySize, targets, "logit_offsets");

  const int ropeMode = c.neoxRope ? GGML_ROPE_TYPE_NEOX : GGML_ROPE_TYPE_NORMAL;
  const float attentionScale = 1.0f / std::sqrt(static_cast<float>(c.keyLength));
  auto rope = [&](ggml_tensor* x) {
    // llama.cpp's unscaled rope: freq_scale 1, no YaRN (ext_factor 0), attention factor 1.
    return g.ggml_rope_ext(ctx, x, graph.positions, weights.ropeFrequencies, static_cast<int>(c.keyLength), ropeMode,
                           static_cast<int>(c.contextLength), c.ropeFrequencyBase, 1.0f, 0.0f, 1.0f, 32.0f, 1.0f);
  };
  // W·x (+ b), plus scale·B·(A·x) where an adapter adapts W, as llama.cpp's build_lora_mm.
  auto linear = [&](ggml_tensor* weight, ggml_tensor* bias, ggml_tensor* x) {
    ggml_tensor* y = g.ggml_mul_mat(ctx, weight, x);
    const auto pair = weights.lora.find(weight);
    if (pair != weights.lora.end()) {
      ggml_tensor* update = g.ggml_mul_mat(ctx, pair->second.b, g.ggml_mul_mat(ctx, pair->second.a, x));
      y = g.ggml_add(ctx, y, g.ggml_scale(ctx, update, c.loraScale));
    }
    return bias == nullptr ? y : g.ggml_add(ctx, y, bias);
  };

  // Attention of rotated q [key, heads, tokens], k [key, kv heads, tokens], v [value, kv heads, tokens]
  // to [value · heads, tokens]. One way per layout, the weights' choice.
  // Plain: every key at its token's row, the mask [tokens, tokens] keeping sequences apart.
  auto plainAttention = [&](ggml_tensor* q, ggml_tensor* k, ggml_tensor* v) {
    // Heads outermost, contiguous: the backward's out_prod wants plain layouts.
    q = g.ggml_cont(ctx, g.ggml_permute(ctx, q, 0, 2, 1, 3));  // [key, tokens, heads]
    k = g.ggml_cont(ctx, g.ggml_permute(ctx, k, 0, 2, 1, 3));  // [key, tokens, kv heads]
    v = g.ggml_cont(ctx, g.ggml_permute(ctx, v, 1, 2, 0, 3));  // [tokens, value, kv heads]
    // Query head h reads key/value head h / (heads / kv heads): mul_mat's broadcast over dimension 2.
    ggml_tensor* scores = g.ggml_mul_mat(ctx, k, q);  // [tokens (keys), tokens (queries), heads]
    // Named for the product kernel (ggml-product-kernels.h): here no query sees a later row's key, so
    // it may skip what the mask zeroes.
    g.ggml_set_name(scores, GGML_CAUSAL_SCORES_NAME);
    scores = g.ggml_soft_max_ext(ctx, scores, graph.mask, attentionScale, 0.0f);
    ggml_tensor* attended = g.ggml_mul_mat(ctx, v, scores);  // [value, tokens, heads]
    g.ggml_set_name(attended, GGML_CAUSAL_VALUES_NAME);
    return g.ggml_cont_2d(ctx, g.ggml_permute(ctx, attended, 0, 2, 1, 3), c.valueLength * c.headCount, tokens);
  };
  // Engine order: the engine's arithmetic, for quantised models (ggml-attention-layout.h).
  auto engineOrderAttention = [&](ggml_tensor* q, ggml_tensor* k, ggml_tensor* v) {
    // Keys and values at the slots of ggmlAttentionLayout (the engine's cache cells), heads outermost,
    // contiguous: the backward's out_prod wants plain layouts.
    ggml_tensor* keys = g.ggml_get_rows(ctx, g.ggml_reshape_2d(ctx, k, c.keyLength * c.headCountKv, tokens), graph.keyRows);
    keys = g.ggml_cont(ctx, g.ggml_permute(ctx, g.ggml_reshape_3d(ctx, keys, c.keyLength, c.headCountKv, slots), 0, 2, 1, 3));  // [key, slots, kv heads]
    ggml_tensor* values = g.ggml_get_rows(ctx, g.ggml_reshape_2d(ctx, v, c.valueLength * c.headCountKv, tokens), graph.keyRows);
    values = g.ggml_cont(ctx, g.ggml_permute(ctx, g.ggml_reshape_3d(ctx, values, c.valueLength, c.headCountKv, slots), 1, 2, 0, 3));  // [slots, value, kv heads]
    // The queries stay a permuted view, as in llama.cpp: ggml's CPU mul_mat then takes one dot product
    // per score (vec_dot) instead of the batched kernel a contiguous operand gets, as the engine does.
    q = g.ggml_permute(ctx, q, 0, 2, 1, 3);  // [key, tokens, heads]
    // Query head h reads key/value head h / (heads / kv heads): mul_mat's broadcast over dimension 2.
    ggml_tensor* scores = g.ggml_mul_mat(ctx, keys, q);  // [slots, tokens (queries), heads]
    scores = g.ggml_soft_max_ext(ctx, scores, graph.mask, attentionScale, 0.0f);
    // The engine weighs the values of a prompt batch with the batched kernel (a contiguous operand of
    // two or more rows) and those of a decoded token with vec_dot: both are computed, each row keeps its own.
    ggml_tensor* batched = g.ggml_mul_mat(ctx, values, scores);  // [value, tokens, heads]
    // A non-contiguous view of the same scores (dup, not cont: cont's backward refuses the permuted gradient).
    ggml_tensor* scoresView = g.ggml_permute(ctx, g.ggml_dup(ctx, g.ggml_permute(ctx, scores, 0, 2, 1, 3)), 0, 2, 1, 3);
    ggml_tensor* alone = g.ggml_mul_mat(ctx, values, scoresView);  // [value, tokens, heads]
    ggml_tensor* attended = g.ggml_add(ctx, g.ggml_mul(ctx, batched, g.ggml_reshape_3d(ctx, graph.batchedRows, 1, tokens, 1)),
                                       g.ggml_mul(ctx, alone, g.ggml_reshape_3d(ctx, graph.decodedRows, 1, tokens, 1)));
    return g.ggml_cont_2d(ctx, g.ggml_permute(ctx, attended, 0, 2, 1, 3), c.valueLength * c.headCount, tokens);
  };

  ggml_tensor* hidden = g.ggml_get_rows(ctx, weights.tokenEmbedding, graph.tokens);  // [embedding, tokens]
  for (const GgmlBlockWeights& block : weights.blocks) {
    ggml_tensor* x = g.ggml_mul(ctx, g.ggml_rms_norm(ctx, hidden, c.rmsNormEpsilon), block.attentionNorm);
    ggml_tensor* q = g.ggml_reshape_3d(ctx, linear(block.query, block.queryBias, x), c.keyLength, c.headCount, tokens);
    ggml_tensor* k = g.ggml_reshape_3d(ctx, linear(block.key, block.keyBias, x), c.keyLength, c.headCountKv, tokens);
    ggml_tensor* v = g.ggml_reshape_3d(ctx, linear(block.value, block.valueBias, x), c.valueLength, c.headCountKv, tokens);
    q = rope(q);
    k = rope(k);
    ggml_tensor* attended = weights.engineOrderAttention ? engineOrderAttention(q, k, v) : plainAttention(q, k, v);
    hidden = g.ggml_add(ctx, hidden, linear(block.attentionOutput, nullptr, attended));

    x = g.ggml_mul(ctx, g.ggml_rms_norm(ctx, hidden, c.rmsNormEpsilon), block.feedForwardNorm);
    ggml_tensor* activated = g.ggml_swiglu_split(ctx, linear(block.gate, nullptr, x), linear(block.up, nullptr, x));
    hidden = g.ggml_add(ctx, hidden, linear(block.down, nullptr, activated));
  }
  // Only the rows that score a target go through the output layer.
  ggml_tensor* scored = g.ggml_get_rows(ctx, hidden, graph.targetRows);  // [embedding, targets]
  scored = g.ggml_mul(ctx, g.ggml_rms_norm(ctx, scored, c.rmsNormEpsilon), weights.outputNorm);
  ggml_tensor* logits = linear(weights.output, nullptr, scored);  // [vocabulary, targets]
  // The engine's order: logit bias, grammar mask, then the temperature.
  if (graph.logitOffsets != nullptr) logits = g.ggml_add(ctx, logits, graph.logitOffsets);
  ggml_tensor* scaled = unitTemperatures ? logits : g.ggml_div(ctx, logits, graph.temperatures);  // logits / T, as the engine divides
  ggml_tensor* probabilities = g.ggml_soft_max(ctx, scaled);
  const int64_t flat = c.vocabularySize * targets;
  // Rows of one element: get_rows then picks probabilities[token, target] (and carries its gradient back).
  ggml_tensor* chosen = g.ggml_get_rows(ctx, g.ggml_reshape_2d(ctx, probabilities, 1, flat), graph.targetIndices);
  graph.logprobs = g.ggml_reshape_2d(ctx, g.ggml_log(ctx, chosen), 1, targets);
  g.ggml_set_name(graph.logprobs, "logprobs");
  g.ggml_set_output(graph.logprobs);
  if (entropy) {
    // H = logsumexp(z) − Σ p·z, and logsumexp(z) = z_token − log p_token: no second normaliser to compute.
    ggml_tensor* chosenLogit = g.ggml_reshape_2d(ctx, g.ggml_get_rows(ctx, g.ggml_reshape_2d(ctx, scaled, 1, flat), graph.targetIndices), 1, targets);
    ggml_tensor* expected = g.ggml_reshape_2d(ctx, g.ggml_sum_rows(ctx, g.ggml_mul(ctx, probabilities, scaled)), 1, targets);
    graph.entropy = g.ggml_sub(ctx, g.ggml_sub(ctx, chosenLogit, graph.logprobs), expected);
    g.ggml_set_name(graph.entropy, "entropy");
    g.ggml_set_output(graph.entropy);
  }
  return graph;
}

void setGgmlForwardInputs(const GgmlLibrary& g, const GgmlForwardGraph& graph, const GgmlChunk& chunk, int64_t vocabularySize) {
  const size_t tokens = chunk.tokens.size();
  const bool engineOrder = graph.keyRows != nullptr;
  const GgmlAttentionLayout layout = engineOrder ? ggmlAttentionLayout(chunk) : ggmlPlainAttentionLayout(chunk);
  std::vector<int32_t> indices(chunk.targetRows.size());
  for (size_t index = 0; index < indices.size(); index++) {
    indices[index] = static_cast<int32_t>(static_cast<int64_t>(index) * vocabularySize + chunk.targetTokens[index]);
  }
  g.ggml_backend_tensor_set(graph.tokens, chunk.tokens.data(), 0, tokens * sizeof(int32_t));
  g.ggml_backend_tensor_set(graph.positions, layout.positions.data(), 0, tokens * sizeof(int32_t));
  g.ggml_backend_tensor_set(graph.mask, layout.mask.data(), 0, layout.mask.size() * sizeof(float));
  if (engineOrder) {
    g.ggml_backend_tensor_set(graph.keyRows, layout.keyRows.data(), 0, layout.keyRows.size() * sizeof(int32_t));
    g.ggml_backend_tensor_set(graph.decodedRows, layout.decoded.data(), 0, tokens * sizeof(float));
    g.ggml_backend_tensor_set(graph.batchedRows, layout.batched.data(), 0, tokens * sizeof(float));
  }
  g.ggml_backend_tensor_set(graph.targetRows, chunk.targetRows.data(), 0, chunk.targetRows.size() * sizeof(int32_t));
  g.ggml_backend_tensor_set(graph.targetIndices, indices.data(), 0, indices.size() * sizeof(int32_t));
  if (graph.temperatures != nullptr) {
    g.ggml_backend_tensor_set(graph.temperatures, chunk.temperatures.data(), 0, chunk.temperatures.size() * sizeof(float));
  }
  if (graph.logitOffsets != nullptr) {
    g.ggml_backend_tensor_set(graph.logitOffsets, chunk.logitOffsets.data(), 0, chunk.logitOffsets.size() * sizeof(float));
  }
}
