// The llama.cpp context settings of the native engine, shared by everything that
// decodes as the engine does (its contexts, and the forward timing that benchmarks
// compare the trainer with), so the two can never drift apart.
#pragma once

#include <cstdint>

#include "llama-library.h"

/**
 * Context parameters of an engine: `cells` of KV cache in all, `sequences`
 * sequences, batches of `batchSize` tokens decoded in one pass (n_batch =
 * n_ubatch), `threads` for single tokens and batches alike. `exact`: f32 keys
 * and values and no flash attention, so logprobs match an independent f32
 * forward pass; otherwise llama.cpp's defaults (f16 cache, flash attention auto).
 */
inline llama_context_params engineContextParameters(const LlamaLibrary& library, uint32_t cells, uint32_t sequences, uint32_t batchSize,
                                                    int32_t threads, bool exact) {
  llama_context_params parameters = library.llama_context_default_params();
  parameters.n_ctx = cells;
  parameters.n_seq_max = sequences;
  parameters.n_batch = batchSize;
  parameters.n_ubatch = batchSize;
  parameters.n_threads = threads;
  parameters.n_threads_batch = threads;
  parameters.no_perf = true;
  parameters.swa_full = false;
  if (exact) {
    parameters.flash_attn_type = LLAMA_FLASH_ATTN_TYPE_DISABLED;
    parameters.type_k = GGML_TYPE_F32;
    parameters.type_v = GGML_TYPE_F32;
  }
  return parameters;
}
