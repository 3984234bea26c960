#include "engine-forward-timing.h"

#include <chrono>
#include <cmath>
#include <exception>
#include <string>
#include <utility>
#include <vector>

#include "addon-errors.h"
#include "engine-context-parameters.h"

namespace {

struct ForwardTimingInput {
  std::vector<llama_token> tokens;
  int32_t threads = 1;
  int32_t runs = 1;
};

class TimeForwardWorker : public Napi::AsyncWorker {
 public:
  TimeForwardWorker(Napi::Env env, Napi::Promise::Deferred deferred, std::shared_ptr<ModelResource> model, ForwardTimingInput input)
      : Napi::AsyncWorker(env, "selfplay:timeForward"), deferred(std::move(deferred)), model(std::move(model)), input(std::move(input)) {}

 protected:
  void Execute() override {
    try {
      time();
    } catch (const std::exception& error) {
      SetError(error.what());
    }
  }

  void OnOK() override {
    Napi::Float64Array result = Napi::Float64Array::New(Env(), seconds.size());
    std::copy(seconds.begin(), seconds.end(), result.Data());
    deferred.Resolve(result);
  }

  void OnError(const Napi::Error& error) override {
    deferred.Reject(addon_errors::error(Env(), addon_errors::GENERATION_FAILED, error.Message()).Value());
  }

 private:
  void time() {
    const LlamaLibrary& library = model->library;
    const auto count = static_cast<uint32_t>(input.tokens.size());
    // The engine's exact mode, one sequence, the whole batch in one ubatch (as its prompts up to 512 tokens).
    llama_context_params parameters = engineContextParameters(library, count, 1, count, input.threads, true);
    llama_context* context = library.llama_init_from_model(model->model, parameters);
    if (context == nullptr) return SetError("llama.cpp could not create a context of " + std::to_string(count) + " tokens (its log says why)");
    const ContextResource owned(model, context, nullptr);

    std::vector<llama_pos> positions(count);
    std::vector<int32_t> sequenceCounts(count, 1);
    llama_seq_id sequence = 0;
    std::vector<llama_seq_id*> sequencePointers(count, &sequence);
    // Logits at every position: the trainer scores every token, so the output layer runs on every row here too.
    std::vector<int8_t> outputs(count, 1);
    for (uint32_t index = 0; index < count; index++) positions[index] = static_cast<llama_pos>(index);
    llama_batch batch{};
    batch.n_tokens = static_cast<int32_t>(count);
    batch.token = input.tokens.data();
    batch.pos = positions.data();
    batch.n_seq_id = sequenceCounts.data();
    batch.seq_id = sequencePointers.data();
    batch.logits = outputs.data();

    llama_memory_t memory = library.llama_get_memory(context);
    for (int32_t run = 0; run < input.runs; run++) {
      // Each run starts from an empty cache, so each decodes the same batch from position 0.
      library.llama_memory_clear(memory, true);
      const auto started = std::chrono::steady_clock::now();
      const int32_t status = library.llama_decode(context, batch);
      // A GPU backend may still be computing when llama_decode returns.
      library.llama_synchronize(context);
      const auto finished = std::chrono::steady_clock::now();
      if (status != 0) return SetError("llama_decode failed with status " + std::to_string(status) + " on run " + std::to_string(run));
      seconds.push_back(std::chrono::duration<double>(finished - started).count());
    }
  }

  Napi::Promise::Deferred deferred;
  const std::shared_ptr<ModelResource> model;
  ForwardTimingInput input;
  std::vector<double> seconds;
};

/** An integer option in [minimum, maximum]; else the message of the invalid-argument error. */
std::string readInteger(const Napi::Object& options, const char* key, int32_t minimum, int32_t maximum, int32_t& value) {
  const Napi::Value raw = options.Get(key);
  const double number = raw.IsNumber() ? raw.As<Napi::Number>().DoubleValue() : NAN;
  if (!std::isfinite(number) || std::floor(number) != number || number < minimum || number > maximum) {
    return std::string("options.") + key + ": expected an integer from " + std::to_string(minimum) + " to " + std::to_string(maximum);
  }
  value = static_cast<int32_t>(number);
  return "";
}

/** The message of the first problem with the arguments, empty when there is none. */
std::string parseInput(const Napi::CallbackInfo& info, int32_t vocabularySize, ForwardTimingInput& input) {
  if (info.Length() < 1 || !info[0].IsObject()) return "options: expected {tokens, threads, runs}";
  const Napi::Object options = info[0].As<Napi::Object>();
  const Napi::Value tokens = options.Get("tokens");
  if (!tokens.IsTypedArray() || tokens.As<Napi::TypedArray>().TypedArrayType() != napi_int32_array) return "options.tokens: expected an Int32Array";
  const Napi::Int32Array array = tokens.As<Napi::Int32Array>();
  if (array.ElementLength() < 1 || array.ElementLength() > static_cast<size_t>(MAX_TIMED_FORWARD_TOKENS)) {
    return "options.tokens: expected from 1 to " + std::to_string(MAX_TIMED_FORWARD_TOKENS) + " token ids, got " + std::to_string(array.ElementLength());
  }
  for (size_t index = 0; index < array.ElementLength(); index++) {
    const int32_t token = array[index];
    if (token < 0 || token >= vocabularySize) {
      return "options.tokens[" + std::to_string(index) + "]: expected a token id from 0 to " + std::to_string(vocabularySize - 1) + ", got " +
             std::to_string(token);
    }
    input.tokens.push_back(token);
  }
  std::string problem = readInteger(options, "threads", 1, 1024, input.threads);
  if (problem.empty()) problem = readInteger(options, "runs", 1, 1000, input.runs);
  return problem;
}

}  // namespace

Napi::Value timeForward(const Napi::CallbackInfo& info, std::shared_ptr<ModelResource> model) {
  const Napi::Env env = info.Env();
  auto deferred = Napi::Promise::Deferred::New(env);
  ForwardTimingInput input;
  const std::string problem = parseInput(info, model->vocabularySize, input);
  if (!problem.empty()) {
    // Rejected, not thrown: the caller awaits a promise either way.
    deferred.Reject(addon_errors::invalidArgument(env, problem).Value());
    return deferred.Promise();
  }
  const Napi::Promise promise = deferred.Promise();
  auto* worker = new TimeForwardWorker(env, std::move(deferred), std::move(model), std::move(input));
  worker->Queue();
  return promise;
}
