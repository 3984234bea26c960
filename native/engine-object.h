// The JavaScript face of a context with its generation loop: generate(),
// abort(), dispose(). Finished calls come back to the JavaScript thread through
// a thread-safe function; promises settle there.
#pragma once

#include <napi.h>

#include <memory>
#include <set>
#include <unordered_map>

#include "grammar-cache.h"
#include "llama-resources.h"

class EngineObject : public Napi::ObjectWrap<EngineObject> {
 public:
  static Napi::Function define(Napi::Env env);
  /** Only createEngine() makes these: it passes the context as an External. */
  explicit EngineObject(const Napi::CallbackInfo& info);
  ~EngineObject() override;

  /** Stops the loop and frees the context now, without settling promises: the environment is going away. */
  void shutDown();

 private:
  static void onCallFinished(Napi::Env env, Napi::Function, EngineObject* engine, std::shared_ptr<GenerationCall>* call);
  using FinishedCalls = Napi::TypedThreadSafeFunction<EngineObject, std::shared_ptr<GenerationCall>, &EngineObject::onCallFinished>;

  Napi::Value generate(const Napi::CallbackInfo& info);
  Napi::Value abort(const Napi::CallbackInfo& info);
  Napi::Value dispose(const Napi::CallbackInfo& info);
  Napi::Value contextSize(const Napi::CallbackInfo& info);
  Napi::Value sequences(const Napi::CallbackInfo& info);
  void settle(Napi::Env env, const std::shared_ptr<GenerationCall>& call);

  struct PendingCall {
    std::shared_ptr<GenerationCall> call;
    Napi::Promise::Deferred deferred;
  };

  std::unique_ptr<EngineResource> engine;
  std::unique_ptr<GrammarCache> grammars;
  FinishedCalls finishedCalls;
  std::unordered_map<uint32_t, PendingCall> pending;
  std::shared_ptr<std::set<EngineObject*>> registry;
  /** Set by dispose(): calls failing from then on were cut short by it. */
  bool disposing = false;
  int32_t vocabularySizeValue = 0;
  int32_t contextSizeValue = 0;
  int32_t sequencesValue = 0;
};
