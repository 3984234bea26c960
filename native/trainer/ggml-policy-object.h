// JavaScript's handle on a GgmlPolicy (declared in src/inference/native/AddonTypes.ts
// as AddonGgmlPolicy). Heavy calls run on libuv's workers and return promises.
#pragma once

#include <napi.h>

#include <memory>

#include "ggml-policy.h"

class GgmlPolicyObject : public Napi::ObjectWrap<GgmlPolicyObject> {
 public:
  static Napi::Function define(Napi::Env env);
  /** `loadGgmlPolicy(options)`: checks the options, then loads off the JavaScript thread. */
  static Napi::Value load(const Napi::CallbackInfo& info);
  explicit GgmlPolicyObject(const Napi::CallbackInfo& info);

 private:
  Napi::Value forward(const Napi::CallbackInfo& info);
  Napi::Value estimate(const Napi::CallbackInfo& info);
  Napi::Value backward(const Napi::CallbackInfo& info);
  Napi::Value step(const Napi::CallbackInfo& info);
  Napi::Value clearGradients(const Napi::CallbackInfo& info);
  Napi::Value tensors(const Napi::CallbackInfo& info);
  Napi::Value readTensor(const Napi::CallbackInfo& info);
  Napi::Value writeTensor(const Napi::CallbackInfo& info);
  Napi::Value bytes(const Napi::CallbackInfo& info);
  Napi::Value cpuKernels(const Napi::CallbackInfo& info);
  Napi::Value device(const Napi::CallbackInfo& info);
  Napi::Value fallbackNodes(const Napi::CallbackInfo& info);
  Napi::Value dispose(const Napi::CallbackInfo& info);
  std::shared_ptr<GgmlPolicy> resource(Napi::Env env) const;

  std::shared_ptr<GgmlPolicy> policy;
};
