// The addon's entry point. Its whole surface is declared once, in
// src/inference/native/AddonTypes.ts, and loaded by load-native-addon.ts.
#include <napi.h>

#include <exception>

#include "addon-errors.h"
#include "addon-state.h"
#include "devices/ggml-devices.h"
#include "engine-object.h"
#include "trainer/ggml-policy-object.h"
#include "llama-library.h"
#include "model-object.h"
#include "selfplay-llama-release.h"

namespace {

Napi::Value findLoadedLibraries(const Napi::CallbackInfo& info) {
  const auto paths = findLoadedLlamaLibraries();
  Napi::Array array = Napi::Array::New(info.Env(), paths.size());
  for (size_t index = 0; index < paths.size(); index++) array.Set(static_cast<uint32_t>(index), paths[index]);
  return array;
}

Napi::Value bindLibrary(const Napi::CallbackInfo& info) {
  const Napi::Env env = info.Env();
  if (info.Length() < 1 || !info[0].IsString()) throw addon_errors::invalidArgument(env, "bindLlamaLibrary: expected the library's path");
  try {
    bindLlamaLibrary(info[0].As<Napi::String>().Utf8Value());
  } catch (const std::exception& error) {
    throw addon_errors::error(env, addon_errors::LOAD_FAILED, error.what());
  }
  return env.Undefined();
}

Napi::Value listDevices(const Napi::CallbackInfo& info) {
  const Napi::Env env = info.Env();
  std::vector<GgmlDeviceInfo> devices;
  try {
    devices = listGgmlDevices(ggmlLibrary());
  } catch (const std::exception& error) {
    throw addon_errors::error(env, addon_errors::LOAD_FAILED, error.what());
  }
  Napi::Array array = Napi::Array::New(env, devices.size());
  for (size_t index = 0; index < devices.size(); index++) {
    const GgmlDeviceInfo& device = devices[index];
    Napi::Object object = Napi::Object::New(env);
    object.Set("name", device.name);
    object.Set("description", device.description);
    object.Set("backend", device.backend);
    object.Set("type", device.type);
    object.Set("memoryFree", static_cast<double>(device.memoryFree));
    object.Set("memoryTotal", static_cast<double>(device.memoryTotal));
    object.Set("software", device.software);
    array.Set(static_cast<uint32_t>(index), object);
  }
  return array;
}

Napi::Object initialize(Napi::Env env, Napi::Object exports) {
  auto* state = new AddonState();
  env.SetInstanceData(state);
  state->modelConstructor = Napi::Persistent(ModelObject::define(env));
  state->engineConstructor = Napi::Persistent(EngineObject::define(env));
  state->ggmlPolicyConstructor = Napi::Persistent(GgmlPolicyObject::define(env));
  // Loop threads must be stopped before Node tears the environment (and the thread-safe functions) down.
  env.AddCleanupHook([engines = state->engines]() {
    const auto live = *engines;
    for (EngineObject* engine : live) engine->shutDown();
  });
  exports.Set("llamaCppRelease", Napi::String::New(env, SELFPLAY_LLAMA_CPP_RELEASE));
  exports.Set("llamaCppCommit", Napi::String::New(env, SELFPLAY_LLAMA_CPP_COMMIT));
  exports.Set("findLoadedLlamaLibraries", Napi::Function::New(env, findLoadedLibraries, "findLoadedLlamaLibraries"));
  exports.Set("bindLlamaLibrary", Napi::Function::New(env, bindLibrary, "bindLlamaLibrary"));
  exports.Set("listDevices", Napi::Function::New(env, listDevices, "listDevices"));
  exports.Set("loadModel", Napi::Function::New(env, ModelObject::load, "loadModel"));
  exports.Set("loadGgmlPolicy", Napi::Function::New(env, GgmlPolicyObject::load, "loadGgmlPolicy"));
  return exports;
}

}  // namespace

NODE_API_MODULE(selfplay_native, initialize)
