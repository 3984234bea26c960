// Times the engine's forward pass over one batch with logits at every position:
// what a trainer computes forward, so a benchmark can compare the two on the
// same tokens, model file and threads.
#pragma once

#include <napi.h>

#include <memory>

#include "llama-resources.h"

/** The most tokens one timed batch may hold: the engine's batch size (node-llama-cpp's). */
constexpr int32_t MAX_TIMED_FORWARD_TOKENS = 512;

/**
 * model.timeForward({tokens, threads, runs}): Promise<Float64Array>, the
 * seconds of each of `runs` llama_decode calls over `tokens` (1 to 512 ids of
 * the vocabulary, one sequence from position 0, logits requested at every
 * position) on a context with the engine's exact-mode settings (f32 K/V, no
 * flash attention, n_batch = n_ubatch = the token count, `threads` for
 * batches). The memory is cleared before each run, so every run computes the
 * same thing; the first also pays for touching the weights and buffers, which
 * callers leave out. Runs off the JavaScript thread; a bad argument rejects
 * with SELFPLAY_INVALID_ARGUMENT before anything is computed.
 */
Napi::Value timeForward(const Napi::CallbackInfo& info, std::shared_ptr<ModelResource> model);
