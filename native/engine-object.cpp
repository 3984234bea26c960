#include "engine-object.h"

#include <cmath>

#include "addon-errors.h"
#include "addon-state.h"
#include "request-parsing.h"

namespace {

const char* finishReasonName(FinishReason reason) {
  switch (reason) {
    case FinishReason::Stop:
      return "stop";
    case FinishReason::Length:
      return "length";
    case FinishReason::Abort:
      return "abort";
  }
  return "abort";
}

/** Stops the loop and frees the context off the JavaScript thread: the loop may be mid-step. */
class DisposeEngineWorker : public Napi::AsyncWorker {
 public:
  template <typename FinishedCalls>
  DisposeEngineWorker(Napi::Env env, std::unique_ptr<EngineResource> engine, FinishedCalls finishedCalls)
      : Napi::AsyncWorker(env, "selfplay:disposeEngine"),
        engine(std::move(engine)),
        release([finishedCalls]() mutable { finishedCalls.Release(); }),
        deferred(Napi::Promise::Deferred::New(env)) {}
  Napi::Promise promise() const { return deferred.Promise(); }

 protected:
  void Execute() override {
    engine->loop->stop("the native generation engine was disposed");
    engine.reset();
  }
  void OnOK() override {
    // Calls failed by the stop are already queued to the thread-safe function; they settle before it closes.
    release();
    deferred.Resolve(Env().Undefined());
  }

 private:
  std::unique_ptr<EngineResource> engine;
  std::function<void()> release;
  Napi::Promise::Deferred deferred;
};

}  // namespace

Napi::Function EngineObject::define(Napi::Env env) {
  return DefineClass(env, "NativeGenerationEngine",
                     {
                         InstanceMethod<&EngineObject::generate>("generate"),
                         InstanceMethod<&EngineObject::abort>("abort"),
                         InstanceMethod<&EngineObject::dispose>("dispose"),
                         InstanceAccessor<&EngineObject::contextSize>("contextSize"),
                         InstanceAccessor<&EngineObject::sequences>("sequences"),
                     });
}

EngineObject::EngineObject(const Napi::CallbackInfo& info) : Napi::ObjectWrap<EngineObject>(info) {
  const Napi::Env env = info.Env();
  if (info.Length() < 1 || !info[0].IsExternal()) throw addon_errors::invalidArgument(env, "use model.createEngine() to make an engine");
  std::unique_ptr<ContextResource> context = std::move(*info[0].As<Napi::External<std::unique_ptr<ContextResource>>>().Data());
  const ModelResource& model = *context->model;
  const LlamaLibrary& library = model.library;
  vocabularySizeValue = model.vocabularySize;
  contextSizeValue = static_cast<int32_t>(library.llama_n_ctx_seq(context->context));
  sequencesValue = static_cast<int32_t>(library.llama_n_seq_max(context->context));
  grammars = std::make_unique<GrammarCache>(library, model.vocabulary);
  finishedCalls = FinishedCalls::New(env, "selfplay:generationFinished", 0, 1, this);
  // Only pending calls keep the process alive.
  finishedCalls.Unref(env);
  engine = std::make_unique<EngineResource>();
  llama_context* llamaContext = context->context;
  engine->context = std::move(context);
  FinishedCalls calls = finishedCalls;
  engine->loop = std::make_unique<GenerationLoop>(library, llamaContext, model.vocabulary, sequencesValue,
                                                  [calls](std::shared_ptr<GenerationCall> call) mutable {
                                                    auto* data = new std::shared_ptr<GenerationCall>(std::move(call));
                                                    // Refused only while the environment shuts down: nobody waits then.
                                                    if (calls.NonBlockingCall(data) != napi_ok) delete data;
                                                  });
  registry = addonState(env).engines;
  registry->insert(this);
}

EngineObject::~EngineObject() {
  registry->erase(this);
  if (engine) {
    engine.reset();
    finishedCalls.Release();
  }
}

void EngineObject::shutDown() {
  if (!engine) return;
  engine->loop->stop("the process is exiting");
  engine.reset();
}

void EngineObject::onCallFinished(Napi::Env env, Napi::Function, EngineObject* engine, std::shared_ptr<GenerationCall>* call) {
  const std::unique_ptr<std::shared_ptr<GenerationCall>> owned(call);
  // A null environment means the function is being torn down: there is no one left to tell.
  if (env != nullptr && engine != nullptr) engine->settle(env, *owned);
}

void EngineObject::settle(Napi::Env env, const std::shared_ptr<GenerationCall>& call) {
  const auto found = pending.find(call->id);
  if (found == pending.end()) return;
  const Napi::Promise::Deferred deferred = found->second.deferred;
  pending.erase(found);
  if (pending.empty()) {
    finishedCalls.Unref(env);
    Unref();
  }
  if (!call->error.empty()) {
    const char* code = disposing ? addon_errors::DISPOSED : addon_errors::GENERATION_FAILED;
    deferred.Reject(addon_errors::error(env, code, call->error).Value());
    return;
  }
  Napi::Array results = Napi::Array::New(env, call->results.size());
  for (size_t index = 0; index < call->results.size(); index++) {
    const GenerationResult& result = call->results[index];
    Napi::Int32Array tokens = Napi::Int32Array::New(env, result.tokens.size());
    std::copy(result.tokens.begin(), result.tokens.end(), tokens.Data());
    Napi::Float64Array logprobs = Napi::Float64Array::New(env, result.logprobs.size());
    std::copy(result.logprobs.begin(), result.logprobs.end(), logprobs.Data());
    Napi::Object output = Napi::Object::New(env);
    output.Set("tokens", tokens);
    output.Set("logprobs", logprobs);
    output.Set("finishReason", finishReasonName(result.finishReason));
    results.Set(static_cast<uint32_t>(index), output);
  }
  deferred.Resolve(results);
}

Napi::Value EngineObject::generate(const Napi::CallbackInfo& info) {
  const Napi::Env env = info.Env();
  if (!engine || disposing) throw addon_errors::error(env, addon_errors::DISPOSED, "the native generation engine was disposed");
  const double callId = info.Length() >= 2 && info[1].IsNumber() ? info[1].As<Napi::Number>().DoubleValue() : NAN;
  if (!std::isfinite(callId) || std::floor(callId) != callId || callId < 0 || callId > 4294967295.0) {
    throw addon_errors::invalidArgument(env, "generate(requests, callId): callId must be an integer in [0, 2^32)");
  }
  const auto id = static_cast<uint32_t>(callId);
  if (pending.count(id) != 0) throw addon_errors::invalidArgument(env, "callId " + std::to_string(id) + " is already in flight");
  std::vector<GenerationRequest> requests = parseRequests(info[0], RequestLimits{vocabularySizeValue, contextSizeValue}, *grammars);
  const Napi::Promise::Deferred deferred = Napi::Promise::Deferred::New(env);
  if (requests.empty()) {
    deferred.Resolve(Napi::Array::New(env));
    return deferred.Promise();
  }
  auto call = std::make_shared<GenerationCall>();
  call->id = id;
  call->results.resize(requests.size());
  call->unfinished = requests.size();
  call->requests = std::move(requests);
  // Submitted first: if the loop refuses it, nothing is left pending. It cannot settle before the
  // lines below, since settling happens on this thread.
  engine->loop->submit(call);
  if (pending.empty()) {
    // Held while calls are pending: the process stays up and this object is not collected.
    finishedCalls.Ref(env);
    Ref();
  }
  pending.emplace(id, PendingCall{call, deferred});
  return deferred.Promise();
}

Napi::Value EngineObject::abort(const Napi::CallbackInfo& info) {
  if (info.Length() >= 1 && info[0].IsNumber()) {
    const auto found = pending.find(info[0].As<Napi::Number>().Uint32Value());
    if (found != pending.end() && engine) {
      found->second.call->aborted.store(true);
      engine->loop->wake();
    }
  }
  return info.Env().Undefined();
}

Napi::Value EngineObject::dispose(const Napi::CallbackInfo& info) {
  const Napi::Env env = info.Env();
  if (!engine) {
    const auto deferred = Napi::Promise::Deferred::New(env);
    deferred.Resolve(env.Undefined());
    return deferred.Promise();
  }
  disposing = true;
  registry->erase(this);
  auto* worker = new DisposeEngineWorker(env, std::move(engine), finishedCalls);
  worker->Queue();
  return worker->promise();
}

Napi::Value EngineObject::contextSize(const Napi::CallbackInfo& info) { return Napi::Number::New(info.Env(), contextSizeValue); }

Napi::Value EngineObject::sequences(const Napi::CallbackInfo& info) { return Napi::Number::New(info.Env(), sequencesValue); }
