#include "model-object.h"

#include <algorithm>
#include <cmath>
#include <exception>

#include "addon-errors.h"
#include "addon-state.h"
#include "engine-context-parameters.h"
#include "engine-forward-timing.h"
#include "devices/ggml-devices.h"
#include "ggml-library.h"
#include "grammar-mask-replay.h"

namespace {

/** Resolves a promise from a worker; rejections carry an addon error code. */
class PromiseWorker : public Napi::AsyncWorker {
 public:
  explicit PromiseWorker(Napi::Env env, const char* name) : Napi::AsyncWorker(env, name), deferred(Napi::Promise::Deferred::New(env)) {}
  Napi::Promise promise() const { return deferred.Promise(); }

 protected:
  void OnError(const Napi::Error& error) override {
    deferred.Reject(addon_errors::error(Env(), code, error.Message()).Value());
  }

  Napi::Promise::Deferred deferred;
  const char* code = addon_errors::LOAD_FAILED;
};

class LoadModelWorker : public PromiseWorker {
 public:
  LoadModelWorker(Napi::Env env, std::string path, std::string device)
      : PromiseWorker(env, "selfplay:loadModel"), path(std::move(path)), device(std::move(device)) {}

 protected:
  void Execute() override {
    try {
      const LlamaLibrary& library = llamaLibrary();
      llama_model_params parameters = library.llama_model_default_params();
      // The one device named, every layer on it; on the CPU no GPU device at all (an empty list, not
      // llama.cpp's default of every GPU): else a build with a GPU would still offload large CPU products to it.
      ggml_backend_dev_t chosen = findGgmlDevice(ggmlLibrary(), device);
      ggml_backend_dev_t devices[2] = {isCpuDevice(ggmlLibrary(), chosen) ? nullptr : chosen, nullptr};
      parameters.devices = devices;
      parameters.n_gpu_layers = devices[0] == nullptr ? 0 : -1;
      llama_model* model = library.llama_model_load_from_file(path.c_str(), parameters);
      if (model == nullptr) return SetError("llama.cpp could not load the model " + path + " (its log says why)");
      loaded = std::make_shared<ModelResource>(library, model);
      if (library.llama_model_has_encoder(model)) {
        loaded.reset();
        return SetError(path + " is an encoder-decoder model; the native decoder runs decoder-only models");
      }
    } catch (const std::exception& error) {
      SetError(error.what());
    }
  }

  void OnOK() override {
    auto external = Napi::External<std::shared_ptr<ModelResource>>::New(Env(), &loaded);
    deferred.Resolve(addonState(Env()).modelConstructor.New({external}));
  }

 private:
  const std::string path;
  /** ggml's name of the device, e.g. "CPU" or "Vulkan0". */
  const std::string device;
  std::shared_ptr<ModelResource> loaded;
};

struct EngineOptions {
  int32_t sequences;
  int32_t contextSize;
  int32_t threads;
  bool exact;
  std::string loraPath;
  float loraScale;
};

class CreateEngineWorker : public PromiseWorker {
 public:
  CreateEngineWorker(Napi::Env env, std::shared_ptr<ModelResource> model, EngineOptions options)
      : PromiseWorker(env, "selfplay:createEngine"), model(std::move(model)), options(std::move(options)) {}

 protected:
  void Execute() override {
    try {
      create();
    } catch (const std::exception& error) {
      SetError(error.what());
    }
  }

  void create() {
    const LlamaLibrary& library = model->library;
    llama_adapter_lora* adapter = nullptr;
    if (!options.loraPath.empty()) {
      adapter = library.llama_adapter_lora_init(model->model, options.loraPath.c_str());
      if (adapter == nullptr) return SetError("llama.cpp could not load the LoRA adapter " + options.loraPath + " (its log says why)");
    }
    // Every sequence gets its own contextSize cells (kv_unified stays off), as in node-llama-cpp.
    const uint32_t sequences = static_cast<uint32_t>(options.sequences);
    const uint32_t cells = sequences * static_cast<uint32_t>(options.contextSize);
    // node-llama-cpp's batch size: prompts up to 512 tokens decode in one pass, so greedy outputs match its path.
    const uint32_t batchSize = std::max<uint32_t>(std::min<uint32_t>(cells, 512), sequences);
    llama_context_params parameters = engineContextParameters(library, cells, sequences, batchSize, options.threads, options.exact);
    llama_context* context = library.llama_init_from_model(model->model, parameters);
    if (context == nullptr) {
      if (adapter != nullptr) library.llama_adapter_lora_free(adapter);
      return SetError("llama.cpp could not create a context of " + std::to_string(options.sequences) + " × " +
                      std::to_string(options.contextSize) + " tokens (its log says why)");
    }
    // Owned from here on: an early return frees context and adapter.
    created = std::make_unique<ContextResource>(model, context, adapter);
    if (adapter != nullptr && library.llama_set_adapters_lora(context, &adapter, 1, &options.loraScale) != 0) {
      created.reset();
      return SetError("llama.cpp could not apply the LoRA adapter " + options.loraPath);
    }
  }

  void OnOK() override {
    auto external = Napi::External<std::unique_ptr<ContextResource>>::New(Env(), &created);
    deferred.Resolve(addonState(Env()).engineConstructor.New({external}));
  }

 private:
  const std::shared_ptr<ModelResource> model;
  EngineOptions options;
  std::unique_ptr<ContextResource> created;
};

/** Lets go of a model off the JavaScript thread: freeing a large model unmaps gigabytes. */
class ReleaseModelWorker : public PromiseWorker {
 public:
  ReleaseModelWorker(Napi::Env env, std::shared_ptr<ModelResource> model) : PromiseWorker(env, "selfplay:disposeModel"), model(std::move(model)) {}

 protected:
  void Execute() override { model.reset(); }
  void OnOK() override { deferred.Resolve(Env().Undefined()); }

 private:
  std::shared_ptr<ModelResource> model;
};

int32_t integerOption(const Napi::Object& options, const char* key, int32_t minimum, int32_t maximum) {
  const Napi::Value value = options.Get(key);
  const double number = value.IsNumber() ? value.As<Napi::Number>().DoubleValue() : NAN;
  if (!std::isfinite(number) || std::floor(number) != number || number < minimum || number > maximum) {
    throw addon_errors::invalidArgument(options.Env(), std::string("options.") + key + ": expected an integer in [" + std::to_string(minimum) +
                                                           ", " + std::to_string(maximum) + "]");
  }
  return static_cast<int32_t>(number);
}

}  // namespace

Napi::Function ModelObject::define(Napi::Env env) {
  return DefineClass(env, "NativeModel",
                     {
                         InstanceMethod<&ModelObject::createEngine>("createEngine"),
                         InstanceMethod<&ModelObject::dispose>("dispose"),
                         InstanceMethod<&ModelObject::replayGrammarMasks>("replayGrammarMasks"),
                         InstanceMethod<&ModelObject::timeForward>("timeForward"),
                         InstanceAccessor<&ModelObject::vocabularySize>("vocabularySize"),
                         InstanceAccessor<&ModelObject::trainContextSize>("trainContextSize"),
                     });
}

Napi::Value ModelObject::load(const Napi::CallbackInfo& info) {
  const Napi::Env env = info.Env();
  if (info.Length() < 1 || !info[0].IsObject()) throw addon_errors::invalidArgument(env, "loadModel: expected {path, device}");
  const Napi::Object options = info[0].As<Napi::Object>();
  if (!options.Get("path").IsString()) throw addon_errors::invalidArgument(env, "options.path: expected the GGUF file's path");
  const std::string path = options.Get("path").As<Napi::String>().Utf8Value();
  if (!options.Get("device").IsString()) throw addon_errors::invalidArgument(env, "options.device: expected ggml's name of a device (\"CPU\", \"Vulkan0\" …)");
  const std::string device = options.Get("device").As<Napi::String>().Utf8Value();
  llamaLibrary();  // throws (a JavaScript error here) before any work when no library is bound
  try {
    findGgmlDevice(ggmlLibrary(), device);
  } catch (const std::invalid_argument& error) {
    throw addon_errors::invalidArgument(env, error.what());
  }
  auto* worker = new LoadModelWorker(env, path, device);
  worker->Queue();
  return worker->promise();
}

ModelObject::ModelObject(const Napi::CallbackInfo& info) : Napi::ObjectWrap<ModelObject>(info) {
  if (info.Length() < 1 || !info[0].IsExternal()) throw addon_errors::invalidArgument(info.Env(), "use loadModel() to load a model");
  model = *info[0].As<Napi::External<std::shared_ptr<ModelResource>>>().Data();
  vocabularySizeValue = model->vocabularySize;
  trainContextSizeValue = model->trainContextSize;
}

const ModelResource& ModelObject::resource(Napi::Env env) const {
  if (!model) throw addon_errors::error(env, addon_errors::DISPOSED, "the native model was disposed");
  return *model;
}

Napi::Value ModelObject::createEngine(const Napi::CallbackInfo& info) {
  const Napi::Env env = info.Env();
  resource(env);
  if (info.Length() < 1 || !info[0].IsObject()) throw addon_errors::invalidArgument(env, "createEngine: expected an options object");
  const Napi::Object options = info[0].As<Napi::Object>();
  EngineOptions engineOptions{};
  engineOptions.sequences = integerOption(options, "sequences", 1, 256);
  engineOptions.contextSize = integerOption(options, "contextSize", 16, 1 << 20);
  engineOptions.threads = integerOption(options, "threads", 1, 1024);
  if (!options.Get("exact").IsBoolean()) throw addon_errors::invalidArgument(env, "options.exact: expected a boolean");
  engineOptions.exact = options.Get("exact").As<Napi::Boolean>().Value();
  engineOptions.loraScale = 1;
  const Napi::Value loraPath = options.Get("loraPath");
  if (!loraPath.IsUndefined()) {
    if (!loraPath.IsString() || loraPath.As<Napi::String>().Utf8Value().empty()) {
      throw addon_errors::invalidArgument(env, "options.loraPath: expected the adapter's GGUF path");
    }
    engineOptions.loraPath = loraPath.As<Napi::String>().Utf8Value();
  }
  auto* worker = new CreateEngineWorker(env, model, std::move(engineOptions));
  worker->Queue();
  return worker->promise();
}

Napi::Value ModelObject::replayGrammarMasks(const Napi::CallbackInfo& info) {
  resource(info.Env());
  return ::replayGrammarMasks(info, model);
}

Napi::Value ModelObject::timeForward(const Napi::CallbackInfo& info) {
  resource(info.Env());
  return ::timeForward(info, model);
}

Napi::Value ModelObject::dispose(const Napi::CallbackInfo& info) {
  auto* worker = new ReleaseModelWorker(info.Env(), std::move(model));
  model = nullptr;
  worker->Queue();
  return worker->promise();
}

Napi::Value ModelObject::vocabularySize(const Napi::CallbackInfo& info) { return Napi::Number::New(info.Env(), vocabularySizeValue); }

Napi::Value ModelObject::trainContextSize(const Napi::CallbackInfo& info) { return Napi::Number::New(info.Env(), trainContextSizeValue); }
