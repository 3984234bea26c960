// The llama.cpp functions the addon calls, resolved at run time from the
// libllama that node-llama-cpp already loaded (CPU, CUDA or Vulkan build), so
// the process holds one llama.cpp and one set of ggml backends. Nothing links
// against llama.cpp at build time: the headers only give the signatures.
#pragma once

#include <string>
#include <vector>

#include "ggml-backend.h"
#include "llama.h"

// Every function the addon uses. Adding one here is the only step needed to call it.
#define SELFPLAY_LLAMA_FUNCTIONS(X)     \
  X(llama_backend_init)                 \
  X(llama_model_default_params)         \
  X(llama_context_default_params)       \
  X(llama_model_load_from_file)         \
  X(llama_model_free)                   \
  X(llama_model_get_vocab)              \
  X(llama_model_n_ctx_train)            \
  X(llama_model_has_encoder)            \
  X(llama_vocab_n_tokens)               \
  X(llama_vocab_is_eog)                 \
  X(llama_token_to_piece)               \
  X(llama_tokenize)                     \
  X(llama_init_from_model)              \
  X(llama_free)                         \
  X(llama_n_ctx_seq)                    \
  X(llama_n_batch)                      \
  X(llama_n_seq_max)                    \
  X(llama_get_memory)                   \
  X(llama_memory_seq_rm)                \
  X(llama_memory_clear)                 \
  X(llama_decode)                       \
  X(llama_synchronize)                  \
  X(llama_get_logits_ith)               \
  X(llama_adapter_lora_init)            \
  X(llama_adapter_lora_free)            \
  X(llama_set_adapters_lora)            \
  X(llama_sampler_init_grammar)         \
  X(llama_sampler_init_top_k)           \
  X(llama_sampler_init_top_p)           \
  X(llama_sampler_init_min_p)           \
  X(llama_sampler_init_dist)            \
  X(llama_sampler_apply)                \
  X(llama_sampler_accept)               \
  X(llama_sampler_clone)                \
  X(llama_sampler_free)                 \
  X(ggml_backend_dev_count)             \
  X(ggml_backend_load_all_from_path)

struct LlamaLibrary {
#define SELFPLAY_DECLARE_FUNCTION(name) decltype(&::name) name = nullptr;
  SELFPLAY_LLAMA_FUNCTIONS(SELFPLAY_DECLARE_FUNCTION)
#undef SELFPLAY_DECLARE_FUNCTION
  /** File the functions come from. */
  std::string path;
};

/** Paths of the libllama shared objects already loaded into this process (node-llama-cpp's). */
std::vector<std::string> findLoadedLlamaLibraries();

/**
 * Resolves every function from the libllama at `path` (loading it if no one
 * has) and loads ggml's backends beside it if none are registered yet. Once
 * per process: binding another path afterwards throws std::runtime_error.
 */
const LlamaLibrary& bindLlamaLibrary(const std::string& path);

/** The bound library; throws std::runtime_error before bindLlamaLibrary. */
const LlamaLibrary& llamaLibrary();
