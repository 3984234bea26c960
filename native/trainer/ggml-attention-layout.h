// Where a chunk's keys sit in its attention rows: as llama.cpp's KV cache
// holds them, so the trainer's attention adds the same numbers in the same
// order as the engine's. The engine (exact mode: f32 cache, no flash
// attention, one stream per sequence) keeps a sequence's key at position p in
// cell p and attends over a multiple of 256 cells; ggml's CPU kernels sum in
// lanes chosen by the index (8 lanes for the softmax and the batched
// product, 4 × 8 for the row-by-row dot product). A key at another index
// rounds differently, and on a quantised model that last-bit difference
// changes how the next matrix product quantises its input (q8_0 activations):
// logprobs move by up to ~1e-2. So each sequence gets a region of slots
// aligned to 32, its keys (its ancestors' first) at slot base + position.
#pragma once

#include <cstdint>
#include <vector>

#include "ggml-forward-graph.h"

/** Slot alignment: the widest lane pattern of ggml's CPU f32 kernels (vec_dot: 4 accumulators × 16 lanes with AVX-512). */
constexpr int64_t GGML_ATTENTION_SLOT_ALIGNMENT = 64;

struct GgmlAttentionLayout {
  /** Token row each key slot reads; padding slots read row 0 and are masked. */
  std::vector<int32_t> keyRows;
  /** [tokens × slots], query row outermost: 0 where the query sees the slot, −∞ elsewhere. */
  std::vector<float> mask;
  /** Position of each token row (a continuing sequence's follow its parent's). */
  std::vector<int32_t> positions;
  /**
   * Per token row: 1 when the engine computed the row by itself (a decoded
   * token: its attention product is one dot product per row, ggml's vec_dot),
   * 0 when it came in a prompt batch (the batched kernel). A row is decoded
   * when the row before it in its sequence scores a target: targets are the
   * completion's tokens, each decoded after the one before.
   */
  std::vector<float> decoded;
  /** 1 − decoded. */
  std::vector<float> batched;
};

/** Slots the chunk's attention rows need (a multiple of the alignment); checkGgmlChunk must have passed. */
int64_t ggmlAttentionSlots(const GgmlChunk& chunk);

GgmlAttentionLayout ggmlAttentionLayout(const GgmlChunk& chunk);

/**
 * The plain layout, for models with no quantised matrix (GgmlPolicyWeights::engineOrderAttention):
 * each key at its own token row, so the slots are the chunk's tokens and a prompt shared by several
 * sequences is attended once. Only `positions` and `mask` ([tokens × tokens]) are filled.
 */
GgmlAttentionLayout ggmlPlainAttentionLayout(const GgmlChunk& chunk);
