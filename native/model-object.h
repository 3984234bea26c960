// The JavaScript face of a loaded model: loadModel(), createEngine(), replayGrammarMasks(), timeForward(), dispose().
#pragma once

#include <napi.h>

#include <memory>

#include "llama-resources.h"

class ModelObject : public Napi::ObjectWrap<ModelObject> {
 public:
  static Napi::Function define(Napi::Env env);
  /** loadModel({path, gpuLayers}): Promise<ModelObject>; the loading runs off the JavaScript thread. */
  static Napi::Value load(const Napi::CallbackInfo& info);
  /** Only load() makes these: it passes the model as an External. */
  explicit ModelObject(const Napi::CallbackInfo& info);

 private:
  Napi::Value createEngine(const Napi::CallbackInfo& info);
  Napi::Value dispose(const Napi::CallbackInfo& info);
  /** See grammar-mask-replay.h. */
  Napi::Value replayGrammarMasks(const Napi::CallbackInfo& info);
  /** See engine-forward-timing.h. */
  Napi::Value timeForward(const Napi::CallbackInfo& info);
  Napi::Value vocabularySize(const Napi::CallbackInfo& info);
  Napi::Value trainContextSize(const Napi::CallbackInfo& info);
  const ModelResource& resource(Napi::Env env) const;

  /** Null once disposed; engines made from it keep their own reference. */
  std::shared_ptr<ModelResource> model;
  int32_t vocabularySizeValue = 0;
  int32_t trainContextSizeValue = 0;
};
