// Owners of llama.cpp objects: each frees what it holds exactly once, on
// whichever thread lets go of it last.
#pragma once

#include <memory>
#include <string>

#include "generation-loop.h"

/** A loaded model; engines share it and keep it alive. */
struct ModelResource {
  ModelResource(const LlamaLibrary& library, llama_model* model)
      : library(library),
        model(model),
        vocabulary(library.llama_model_get_vocab(model)),
        vocabularySize(library.llama_vocab_n_tokens(vocabulary)),
        trainContextSize(library.llama_model_n_ctx_train(model)) {}
  ~ModelResource() { library.llama_model_free(model); }
  ModelResource(const ModelResource&) = delete;
  ModelResource& operator=(const ModelResource&) = delete;

  const LlamaLibrary& library;
  llama_model* const model;
  const llama_vocab* const vocabulary;
  const int32_t vocabularySize;
  const int32_t trainContextSize;
};

/** A context (and its LoRA adapter) over a model. */
struct ContextResource {
  ContextResource(std::shared_ptr<ModelResource> model, llama_context* context, llama_adapter_lora* adapter)
      : model(std::move(model)), context(context), adapter(adapter) {}
  ~ContextResource() {
    // The context uses the adapter, and both use the model: free in that order.
    model->library.llama_free(context);
    if (adapter != nullptr) model->library.llama_adapter_lora_free(adapter);
  }
  ContextResource(const ContextResource&) = delete;
  ContextResource& operator=(const ContextResource&) = delete;

  const std::shared_ptr<ModelResource> model;
  llama_context* const context;
  llama_adapter_lora* const adapter;
};

/** A context and the loop that decodes on it. The loop stops before the context is freed. */
struct EngineResource {
  ~EngineResource() { loop.reset(); }

  std::unique_ptr<ContextResource> context;
  std::unique_ptr<GenerationLoop> loop;
};
