#include "ggml-policy-object.h"

#include <cmath>
#include <exception>
#include <functional>
#include <stdexcept>

#include "../addon-errors.h"
#include "../addon-state.h"
#include "../llama-library.h"

namespace {

/**
 * Runs `work` on a libuv worker and settles a promise with `settle`'s value.
 * std::invalid_argument rejects with SELFPLAY_INVALID_ARGUMENT, anything else
 * with SELFPLAY_GENERATION_FAILED.
 */
class TaskWorker : public Napi::AsyncWorker {
 public:
  TaskWorker(Napi::Env env, const char* name, std::function<void()> work, std::function<Napi::Value(Napi::Env)> settle)
      : Napi::AsyncWorker(env, name), deferred(Napi::Promise::Deferred::New(env)), work(std::move(work)), settle(std::move(settle)) {}
  Napi::Promise promise() const { return deferred.Promise(); }

 protected:
  void Execute() override {
    try {
      work();
    } catch (const std::invalid_argument& error) {
      code = addon_errors::INVALID_ARGUMENT;
      SetError(error.what());
    } catch (const std::exception& error) {
      SetError(error.what());
    }
  }
  void OnOK() override { deferred.Resolve(settle(Env())); }
  void OnError(const Napi::Error& error) override { deferred.Reject(addon_errors::error(Env(), code, error.Message()).Value()); }

 private:
  Napi::Promise::Deferred deferred;
  std::function<void()> work;
  std::function<Napi::Value(Napi::Env)> settle;
  const char* code = addon_errors::GENERATION_FAILED;
};

Napi::Promise queue(Napi::Env env, const char* name, std::function<void()> work, std::function<Napi::Value(Napi::Env)> settle) {
  auto* worker = new TaskWorker(env, name, std::move(work), std::move(settle));
  worker->Queue();
  return worker->promise();
}

double number(const Napi::Object& object, const char* key, double minimum, double maximum, bool integer) {
  const Napi::Value value = object.Get(key);
  const double result = value.IsNumber() ? value.As<Napi::Number>().DoubleValue() : NAN;
  if (!std::isfinite(result) || result < minimum || result > maximum || (integer && std::floor(result) != result)) {
    throw addon_errors::invalidArgument(object.Env(), std::string(key) + ": expected " + (integer ? "an integer" : "a number") + " in [" +
                                                          std::to_string(minimum) + ", " + std::to_string(maximum) + "]");
  }
  return result;
}

bool boolean(const Napi::Object& object, const char* key) {
  const Napi::Value value = object.Get(key);
  if (!value.IsBoolean()) throw addon_errors::invalidArgument(object.Env(), std::string(key) + ": expected a boolean");
  return value.As<Napi::Boolean>().Value();
}

template <typename Element, napi_typedarray_type Type>
std::vector<Element> typedArray(const Napi::Value& value, const std::string& what) {
  if (!value.IsTypedArray() || value.As<Napi::TypedArray>().TypedArrayType() != Type) {
    throw addon_errors::invalidArgument(value.Env(), what + ": expected " + (Type == napi_int32_array ? "an Int32Array" : "a Float32Array"));
  }
  auto array = value.As<Napi::TypedArrayOf<Element>>();
  return std::vector<Element>(array.Data(), array.Data() + array.ElementLength());
}

template <typename Element>
Napi::Value toTypedArray(Napi::Env env, const std::vector<Element>& values) {
  auto array = Napi::TypedArrayOf<Element>::New(env, values.size());
  std::copy(values.begin(), values.end(), array.Data());
  return array;
}

std::shared_ptr<GgmlChunk> chunkArgument(const Napi::Value& value) {
  if (!value.IsObject()) throw addon_errors::invalidArgument(value.Env(), "chunk: expected {tokens, sequenceLengths, targetRows, targetTokens, temperatures}");
  const Napi::Object object = value.As<Napi::Object>();
  auto chunk = std::make_shared<GgmlChunk>();
  chunk->tokens = typedArray<int32_t, napi_int32_array>(object.Get("tokens"), "chunk.tokens");
  chunk->sequenceLengths = typedArray<int32_t, napi_int32_array>(object.Get("sequenceLengths"), "chunk.sequenceLengths");
  chunk->targetRows = typedArray<int32_t, napi_int32_array>(object.Get("targetRows"), "chunk.targetRows");
  chunk->targetTokens = typedArray<int32_t, napi_int32_array>(object.Get("targetTokens"), "chunk.targetTokens");
  chunk->temperatures = typedArray<float, napi_float32_array>(object.Get("temperatures"), "chunk.temperatures");
  const Napi::Value parents = object.Get("sequenceParents");
  if (!parents.IsUndefined()) chunk->sequenceParents = typedArray<int32_t, napi_int32_array>(parents, "chunk.sequenceParents");
  const Napi::Value offsets = object.Get("logitOffsets");
  if (!offsets.IsUndefined()) chunk->logitOffsets = typedArray<float, napi_float32_array>(offsets, "chunk.logitOffsets");
  return chunk;
}

GgmlTensorKind tensorKind(const Napi::Value& value) {
  const std::string kind = value.IsString() ? value.As<Napi::String>().Utf8Value() : "";
  if (kind == "weight") return GgmlTensorKind::weight;
  if (kind == "gradient") return GgmlTensorKind::gradient;
  if (kind == "adam_m") return GgmlTensorKind::firstMoment;
  if (kind == "adam_v") return GgmlTensorKind::secondMoment;
  throw addon_errors::invalidArgument(value.Env(), "kind: expected \"weight\", \"gradient\", \"adam_m\" or \"adam_v\"");
}

}  // namespace

Napi::Function GgmlPolicyObject::define(Napi::Env env) {
  return DefineClass(env, "GgmlPolicy",
                     {
                         InstanceMethod<&GgmlPolicyObject::forward>("forward"),
                         InstanceMethod<&GgmlPolicyObject::estimate>("estimate"),
                         InstanceMethod<&GgmlPolicyObject::backward>("backward"),
                         InstanceMethod<&GgmlPolicyObject::step>("step"),
                         InstanceMethod<&GgmlPolicyObject::clearGradients>("clearGradients"),
                         InstanceMethod<&GgmlPolicyObject::tensors>("tensors"),
                         InstanceMethod<&GgmlPolicyObject::readTensor>("readTensor"),
                         InstanceMethod<&GgmlPolicyObject::writeTensor>("writeTensor"),
                         InstanceMethod<&GgmlPolicyObject::bytes>("bytes"),
                         InstanceMethod<&GgmlPolicyObject::cpuKernels>("cpuKernels"),
                         InstanceMethod<&GgmlPolicyObject::device>("device"),
                         InstanceMethod<&GgmlPolicyObject::fallbackNodes>("fallbackNodes"),
                         InstanceMethod<&GgmlPolicyObject::dispose>("dispose"),
                     });
}

Napi::Value GgmlPolicyObject::load(const Napi::CallbackInfo& info) {
  const Napi::Env env = info.Env();
  if (info.Length() < 1 || !info[0].IsObject()) throw addon_errors::invalidArgument(env, "loadGgmlPolicy: expected an options object");
  const Napi::Object options = info[0].As<Napi::Object>();
  GgmlPolicyConfiguration configuration;
  if (!options.Get("modelPath").IsString()) throw addon_errors::invalidArgument(env, "modelPath: expected the GGUF file's path");
  configuration.modelPath = options.Get("modelPath").As<Napi::String>().Utf8Value();
  const Napi::Value rope = options.Get("ropeType");
  const std::string ropeType = rope.IsString() ? rope.As<Napi::String>().Utf8Value() : "";
  if (ropeType != "normal" && ropeType != "neox") throw addon_errors::invalidArgument(env, "ropeType: expected \"normal\" or \"neox\"");
  configuration.neoxRope = ropeType == "neox";
  const double large = 1 << 30;
  configuration.vocabularySize = static_cast<int64_t>(number(options, "vocabularySize", 1, large, true));
  configuration.contextLength = static_cast<int64_t>(number(options, "contextLength", 1, large, true));
  configuration.embeddingLength = static_cast<int64_t>(number(options, "embeddingLength", 1, large, true));
  configuration.blockCount = static_cast<int64_t>(number(options, "blockCount", 1, 4096, true));
  configuration.feedForwardLength = static_cast<int64_t>(number(options, "feedForwardLength", 1, large, true));
  configuration.headCount = static_cast<int64_t>(number(options, "headCount", 1, 65536, true));
  configuration.headCountKv = static_cast<int64_t>(number(options, "headCountKv", 1, 65536, true));
  configuration.keyLength = static_cast<int64_t>(number(options, "keyLength", 2, 65536, true));
  configuration.valueLength = static_cast<int64_t>(number(options, "valueLength", 1, 65536, true));
  configuration.ropeFrequencyBase = static_cast<float>(number(options, "ropeFrequencyBase", 1e-6, 1e12, false));
  configuration.rmsNormEpsilon = static_cast<float>(number(options, "rmsNormEpsilon", 0, 1, false));
  configuration.trainable = boolean(options, "trainable");
  const Napi::Value loraPath = options.Get("loraPath");
  if (!loraPath.IsUndefined()) {
    if (!loraPath.IsString() || loraPath.As<Napi::String>().Utf8Value().empty()) throw addon_errors::invalidArgument(env, "loraPath: expected the adapter's GGUF path");
    configuration.loraPath = loraPath.As<Napi::String>().Utf8Value();
    configuration.loraScale = static_cast<float>(number(options, "loraScale", -1e6, 1e6, false));
  }
  configuration.threads = static_cast<int32_t>(number(options, "threads", 1, 1024, true));
  const Napi::Value kernels = options.Get("cpuKernels");
  const std::string cpuKernels = kernels.IsUndefined() ? "auto" : kernels.IsString() ? kernels.As<Napi::String>().Utf8Value() : "";
  if (cpuKernels != "auto" && cpuKernels != "generic" && cpuKernels != "portable") {
    throw addon_errors::invalidArgument(env, "cpuKernels: expected \"auto\", \"generic\" or \"portable\"");
  }
  configuration.cpuKernels = cpuKernels == "portable" ? GgmlCpuKernels::portable : cpuKernels == "generic" ? GgmlCpuKernels::generic : GgmlCpuKernels::automatic;
  const Napi::Value device = options.Get("device");
  if (!device.IsUndefined()) {
    if (!device.IsString() || device.As<Napi::String>().Utf8Value().empty()) throw addon_errors::invalidArgument(env, "device: expected ggml's name of a device (\"CPU\", \"Vulkan0\" …)");
    configuration.device = device.As<Napi::String>().Utf8Value();
  }
  const Napi::Value cpuOperations = options.Get("cpuOperations");
  if (!cpuOperations.IsUndefined()) {
    if (!cpuOperations.IsArray()) throw addon_errors::invalidArgument(env, "cpuOperations: expected an array of ggml operation names");
    const Napi::Array names = cpuOperations.As<Napi::Array>();
    for (uint32_t index = 0; index < names.Length(); index++) {
      if (!names.Get(index).IsString()) throw addon_errors::invalidArgument(env, "cpuOperations[" + std::to_string(index) + "]: expected a ggml operation name");
      configuration.cpuOperations.insert(names.Get(index).As<Napi::String>().Utf8Value());
    }
  }
  try {
    llamaLibrary();
  } catch (const std::exception& error) {
    throw addon_errors::error(env, addon_errors::LOAD_FAILED, error.what());
  }
  auto loaded = std::make_shared<std::shared_ptr<GgmlPolicy>>();
  return queue(
      env, "selfplay:loadGgmlPolicy", [loaded, configuration]() { *loaded = std::make_shared<GgmlPolicy>(configuration); },
      [loaded](Napi::Env env) -> Napi::Value {
        auto external = Napi::External<std::shared_ptr<GgmlPolicy>>::New(env, loaded.get());
        return addonState(env).ggmlPolicyConstructor.New({external});
      });
}

GgmlPolicyObject::GgmlPolicyObject(const Napi::CallbackInfo& info) : Napi::ObjectWrap<GgmlPolicyObject>(info) {
  if (info.Length() < 1 || !info[0].IsExternal()) throw addon_errors::invalidArgument(info.Env(), "use loadGgmlPolicy() to load a policy");
  policy = *info[0].As<Napi::External<std::shared_ptr<GgmlPolicy>>>().Data();
}

std::shared_ptr<GgmlPolicy> GgmlPolicyObject::resource(Napi::Env env) const {
  if (!policy) throw addon_errors::error(env, addon_errors::DISPOSED, "the ggml policy was disposed");
  return policy;
}

Napi::Value GgmlPolicyObject::forward(const Napi::CallbackInfo& info) {
  const Napi::Env env = info.Env();
  auto target = resource(env);
  if (info.Length() < 2 || !info[0].IsObject() || !info[1].IsObject()) throw addon_errors::invalidArgument(env, "forward: expected (chunk, options)");
  auto chunk = chunkArgument(info[0]);
  const Napi::Object options = info[1].As<Napi::Object>();
  const bool entropy = boolean(options, "entropy");
  const bool gradients = boolean(options, "gradients");
  auto outputs = std::make_shared<GgmlForwardOutputs>();
  return queue(
      env, "selfplay:ggmlForward", [target, chunk, entropy, gradients, outputs]() { *outputs = target->forward(*chunk, entropy, gradients); },
      [outputs](Napi::Env env) -> Napi::Value {
        Napi::Object result = Napi::Object::New(env);
        result.Set("logprobs", toTypedArray(env, outputs->logprobs));
        result.Set("entropy", outputs->entropy.empty() ? env.Undefined() : toTypedArray(env, outputs->entropy));
        return result;
      });
}

Napi::Value GgmlPolicyObject::estimate(const Napi::CallbackInfo& info) {
  const Napi::Env env = info.Env();
  auto target = resource(env);
  if (info.Length() < 2 || !info[1].IsObject()) throw addon_errors::invalidArgument(env, "estimate: expected (chunk, options)");
  auto chunk = chunkArgument(info[0]);
  const Napi::Object options = info[1].As<Napi::Object>();
  const bool entropy = boolean(options, "entropy");
  const bool gradients = boolean(options, "gradients");
  auto bytes = std::make_shared<size_t>(0);
  return queue(
      env, "selfplay:ggmlEstimate", [target, chunk, entropy, gradients, bytes]() { *bytes = target->estimate(*chunk, entropy, gradients); },
      [bytes](Napi::Env env) -> Napi::Value { return Napi::Number::New(env, static_cast<double>(*bytes)); });
}

Napi::Value GgmlPolicyObject::backward(const Napi::CallbackInfo& info) {
  const Napi::Env env = info.Env();
  auto target = resource(env);
  if (info.Length() < 1) throw addon_errors::invalidArgument(env, "backward: expected (logprobGradients, entropyGradients?)");
  auto logprob = std::make_shared<std::vector<float>>(typedArray<float, napi_float32_array>(info[0], "logprobGradients"));
  auto entropy = std::make_shared<std::vector<float>>();
  if (info.Length() > 1 && !info[1].IsUndefined()) *entropy = typedArray<float, napi_float32_array>(info[1], "entropyGradients");
  return queue(
      env, "selfplay:ggmlBackward", [target, logprob, entropy]() { target->backward(*logprob, *entropy); },
      [](Napi::Env env) -> Napi::Value { return env.Undefined(); });
}

Napi::Value GgmlPolicyObject::step(const Napi::CallbackInfo& info) {
  const Napi::Env env = info.Env();
  auto target = resource(env);
  if (info.Length() < 1 || !info[0].IsObject()) throw addon_errors::invalidArgument(env, "step: expected the AdamW settings");
  const Napi::Object options = info[0].As<Napi::Object>();
  GgmlAdamWStep settings{};
  settings.learningRate = static_cast<float>(number(options, "learningRate", 0, 1e6, false));
  settings.beta1 = static_cast<float>(number(options, "beta1", 0, 1, false));
  settings.beta2 = static_cast<float>(number(options, "beta2", 0, 1, false));
  settings.epsilon = static_cast<float>(number(options, "epsilon", 0, 1e6, false));
  settings.weightDecay = static_cast<float>(number(options, "weightDecay", 0, 1e6, false));
  settings.maxGradientNorm = static_cast<float>(number(options, "maxGradientNorm", 0, 1e30, false));
  settings.step = static_cast<int64_t>(number(options, "step", 1, 9e15, true));
  auto result = std::make_shared<GgmlStepResult>();
  return queue(
      env, "selfplay:ggmlStep", [target, settings, result]() { *result = target->step(settings); },
      [result](Napi::Env env) -> Napi::Value {
        Napi::Object object = Napi::Object::New(env);
        object.Set("gradientNorm", result->gradientNorm);
        object.Set("applied", result->applied);
        return object;
      });
}

Napi::Value GgmlPolicyObject::clearGradients(const Napi::CallbackInfo& info) {
  resource(info.Env())->clearGradients();
  return info.Env().Undefined();
}

Napi::Value GgmlPolicyObject::tensors(const Napi::CallbackInfo& info) {
  const Napi::Env env = info.Env();
  const auto infos = resource(env)->tensors();
  Napi::Array array = Napi::Array::New(env, infos.size());
  for (size_t index = 0; index < infos.size(); index++) {
    Napi::Object object = Napi::Object::New(env);
    object.Set("name", infos[index].name);
    Napi::Array shape = Napi::Array::New(env, infos[index].shape.size());
    for (size_t dimension = 0; dimension < infos[index].shape.size(); dimension++) {
      shape.Set(static_cast<uint32_t>(dimension), static_cast<double>(infos[index].shape[dimension]));
    }
    object.Set("shape", shape);
    object.Set("type", infos[index].type);
    object.Set("trainable", infos[index].trainable);
    array.Set(static_cast<uint32_t>(index), object);
  }
  return array;
}

Napi::Value GgmlPolicyObject::readTensor(const Napi::CallbackInfo& info) {
  const Napi::Env env = info.Env();
  if (info.Length() < 2 || !info[0].IsString()) throw addon_errors::invalidArgument(env, "readTensor: expected (name, kind)");
  try {
    return toTypedArray(env, resource(env)->read(info[0].As<Napi::String>().Utf8Value(), tensorKind(info[1])));
  } catch (const std::invalid_argument& error) {
    throw addon_errors::invalidArgument(env, error.what());
  }
}

Napi::Value GgmlPolicyObject::writeTensor(const Napi::CallbackInfo& info) {
  const Napi::Env env = info.Env();
  if (info.Length() < 3 || !info[0].IsString()) throw addon_errors::invalidArgument(env, "writeTensor: expected (name, kind, values)");
  const auto values = typedArray<float, napi_float32_array>(info[2], "values");
  try {
    resource(env)->write(info[0].As<Napi::String>().Utf8Value(), tensorKind(info[1]), values);
  } catch (const std::invalid_argument& error) {
    throw addon_errors::invalidArgument(env, error.what());
  }
  return env.Undefined();
}

Napi::Value GgmlPolicyObject::bytes(const Napi::CallbackInfo& info) {
  return Napi::Number::New(info.Env(), static_cast<double>(resource(info.Env())->bytes()));
}

Napi::Value GgmlPolicyObject::cpuKernels(const Napi::CallbackInfo& info) {
  return Napi::String::New(info.Env(), resource(info.Env())->cpuKernels());
}

Napi::Value GgmlPolicyObject::device(const Napi::CallbackInfo& info) {
  const std::shared_ptr<GgmlPolicy> held = resource(info.Env());
  size_t free = 0, total = 0;
  held->deviceMemory(free, total);
  Napi::Object object = Napi::Object::New(info.Env());
  object.Set("name", held->deviceName());
  object.Set("description", held->deviceDescription());
  object.Set("memoryFree", static_cast<double>(free));
  object.Set("memoryTotal", static_cast<double>(total));
  return object;
}

Napi::Value GgmlPolicyObject::fallbackNodes(const Napi::CallbackInfo& info) {
  return Napi::Number::New(info.Env(), static_cast<double>(resource(info.Env())->fallbackNodes()));
}

Napi::Value GgmlPolicyObject::dispose(const Napi::CallbackInfo& info) {
  std::shared_ptr<GgmlPolicy> released = std::move(policy);
  policy = nullptr;
  return queue(
      info.Env(), "selfplay:disposeGgmlPolicy", [released]() mutable { released.reset(); },
      [](Napi::Env env) -> Napi::Value { return env.Undefined(); });
}
