// What the addon keeps per Node environment (main thread or worker thread).
#pragma once

#include <napi.h>

#include <memory>
#include <set>

class EngineObject;

struct AddonState {
  Napi::FunctionReference modelConstructor;
  Napi::FunctionReference engineConstructor;
  Napi::FunctionReference ggmlPolicyConstructor;
  /**
   * Engines not yet disposed: their loops are stopped when the environment shuts down.
   * Shared with each engine, which may be finalised after this state is gone.
   */
  std::shared_ptr<std::set<EngineObject*>> engines = std::make_shared<std::set<EngineObject*>>();
};

inline AddonState& addonState(Napi::Env env) { return *env.GetInstanceData<AddonState>(); }
