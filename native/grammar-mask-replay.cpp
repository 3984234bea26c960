#include "grammar-mask-replay.h"

#include <cmath>
#include <exception>
#include <string>
#include <utility>
#include <vector>

#include "addon-errors.h"
#include "request-sampler.h"

namespace {

struct ReplayInput {
  std::string grammar;
  std::string root = "root";
  std::vector<llama_token> completionTokens;
  std::vector<std::string> logitBiasTexts;
};

class ReplayGrammarMasksWorker : public Napi::AsyncWorker {
 public:
  ReplayGrammarMasksWorker(Napi::Env env, std::shared_ptr<ModelResource> model, ReplayInput input)
      : Napi::AsyncWorker(env, "selfplay:replayGrammarMasks"),
        deferred(Napi::Promise::Deferred::New(env)),
        model(std::move(model)),
        input(std::move(input)),
        wordsPerPosition((static_cast<size_t>(this->model->vocabularySize) + 31) / 32) {}

  Napi::Promise promise() const { return deferred.Promise(); }

 protected:
  void Execute() override {
    try {
      replay();
      resolveBiasTexts();
    } catch (const std::exception& error) {
      fail(addon_errors::GENERATION_FAILED, error.what());
    }
  }

  void OnOK() override {
    const Napi::Env env = Env();
    if (failureCode != nullptr) {
      deferred.Reject(addon_errors::error(env, failureCode, failureMessage).Value());
      return;
    }
    Napi::Object result = Napi::Object::New(env);
    result.Set("vocabularySize", Napi::Number::New(env, model->vocabularySize));
    result.Set("wordsPerPosition", Napi::Number::New(env, static_cast<double>(wordsPerPosition)));
    Napi::Uint32Array allowedArray = Napi::Uint32Array::New(env, allowed.size());
    std::copy(allowed.begin(), allowed.end(), allowedArray.Data());
    result.Set("allowed", allowedArray);
    Napi::Int32Array biasArray = Napi::Int32Array::New(env, logitBiasTokens.size());
    std::copy(logitBiasTokens.begin(), logitBiasTokens.end(), biasArray.Data());
    result.Set("logitBiasTokens", biasArray);
    deferred.Resolve(result);
  }

  void OnError(const Napi::Error& error) override {
    deferred.Reject(addon_errors::error(Env(), addon_errors::GENERATION_FAILED, error.Message()).Value());
  }

 private:
  /** Records the first failure; OnOK rejects with it (SetError would lose the code). */
  void fail(const char* code, std::string message) {
    if (failureCode != nullptr) return;
    failureCode = code;
    failureMessage = std::move(message);
  }

  void replay() {
    const LlamaLibrary& library = model->library;
    SamplerPointer grammar;
    try {
      grammar.reset(library.llama_sampler_init_grammar(model->vocabulary, input.grammar.c_str(), input.root.c_str()));
    } catch (const std::exception&) {
      // Some parse errors surface as C++ exceptions from inside llama.cpp rather than as null.
    }
    if (!grammar) {
      return fail(addon_errors::INVALID_GRAMMAR, "constraint.gbnf: expected GBNF text llama.cpp can parse, with a rule \"" + input.root +
                                                     "\" (llama.cpp's log says where it failed): the text the Step was sampled under");
    }
    const size_t vocabularySize = static_cast<size_t>(model->vocabularySize);
    std::vector<llama_token_data> candidates(vocabularySize);
    const size_t positions = input.completionTokens.size();
    allowed.assign(positions * wordsPerPosition, 0);
    for (size_t position = 0; position < positions; position++) {
      // The decoder's order: the bias is added to the logits, then the grammar masks; the mask does not depend on the logits.
      for (size_t token = 0; token < vocabularySize; token++) candidates[token] = llama_token_data{static_cast<llama_token>(token), 0.0f, 0.0f};
      llama_token_data_array current{candidates.data(), vocabularySize, -1, false};
      library.llama_sampler_apply(grammar.get(), &current);
      uint32_t* bits = allowed.data() + position * wordsPerPosition;
      for (size_t index = 0; index < current.size; index++) {
        const llama_token_data& candidate = current.data[index];
        if (candidate.logit == -INFINITY) continue;
        bits[candidate.id / 32] |= 1u << (candidate.id % 32);
      }
      const llama_token token = input.completionTokens[position];
      if ((bits[token / 32] & (1u << (token % 32))) == 0) {
        return fail(addon_errors::GRAMMAR_REJECTED_TOKEN, "completion token " + std::to_string(position) + " (id " + std::to_string(token) +
                                                              ") is not allowed by the grammar there: the tokens were not sampled under this grammar");
      }
      const bool endOfGeneration = library.llama_vocab_is_eog(model->vocabulary, token);
      if (endOfGeneration) {
        // llama.cpp's grammar aborts when it accepts an end-of-generation token; generation ends there anyway.
        if (position + 1 != positions) {
          return fail(addon_errors::GRAMMAR_REJECTED_TOKEN, "completion token " + std::to_string(position) + " (id " + std::to_string(token) +
                                                                ") ends generation but more tokens follow it: pass one Step's completion");
        }
        continue;
      }
      library.llama_sampler_accept(grammar.get(), token);
    }
  }

  void resolveBiasTexts() {
    if (failureCode != nullptr) return;
    const LlamaLibrary& library = model->library;
    for (const std::string& text : input.logitBiasTexts) {
      // As node-llama-cpp's tokenize(text, true): special tokens parsed, nothing added.
      std::vector<llama_token> tokens(text.size() + 2);
      const int32_t count = library.llama_tokenize(model->vocabulary, text.c_str(), static_cast<int32_t>(text.size()), tokens.data(),
                                                   static_cast<int32_t>(tokens.size()), false, true);
      if (count != 1) {
        return fail(addon_errors::INVALID_ARGUMENT, "constraint.logitBias: expected keys that are each exactly one token of this model; \"" + text +
                                                        "\" is " + std::to_string(count < 0 ? -count : count) + " tokens");
      }
      logitBiasTokens.push_back(tokens[0]);
    }
  }

  Napi::Promise::Deferred deferred;
  const std::shared_ptr<ModelResource> model;
  const ReplayInput input;
  const size_t wordsPerPosition;
  std::vector<uint32_t> allowed;
  std::vector<int32_t> logitBiasTokens;
  const char* failureCode = nullptr;
  std::string failureMessage;
};

ReplayInput parseInput(const Napi::CallbackInfo& info, int32_t vocabularySize) {
  const Napi::Env env = info.Env();
  if (info.Length() < 1 || !info[0].IsObject()) {
    throw addon_errors::invalidArgument(env, "replayGrammarMasks: expected {grammar, grammarRoot?, completionTokens, logitBiasTexts?}");
  }
  const Napi::Object options = info[0].As<Napi::Object>();
  ReplayInput input;
  if (!options.Get("grammar").IsString()) throw addon_errors::invalidArgument(env, "options.grammar: expected the GBNF text");
  input.grammar = options.Get("grammar").As<Napi::String>().Utf8Value();
  if (input.grammar.empty()) throw addon_errors::invalidArgument(env, "options.grammar: expected non-empty GBNF text");
  const Napi::Value root = options.Get("grammarRoot");
  if (!root.IsUndefined()) {
    if (!root.IsString() || root.As<Napi::String>().Utf8Value().empty()) throw addon_errors::invalidArgument(env, "options.grammarRoot: expected a rule name");
    input.root = root.As<Napi::String>().Utf8Value();
  }
  const Napi::Value tokens = options.Get("completionTokens");
  if (!tokens.IsTypedArray() || tokens.As<Napi::TypedArray>().TypedArrayType() != napi_int32_array) {
    throw addon_errors::invalidArgument(env, "options.completionTokens: expected an Int32Array");
  }
  const Napi::Int32Array array = tokens.As<Napi::Int32Array>();
  for (size_t index = 0; index < array.ElementLength(); index++) {
    const int32_t token = array[index];
    if (token < 0 || token >= vocabularySize) {
      throw addon_errors::invalidArgument(env, "options.completionTokens[" + std::to_string(index) + "]: expected a token id from 0 to " +
                                                   std::to_string(vocabularySize - 1) + ", got " + std::to_string(token));
    }
    input.completionTokens.push_back(token);
  }
  const Napi::Value texts = options.Get("logitBiasTexts");
  if (!texts.IsUndefined()) {
    if (!texts.IsArray()) throw addon_errors::invalidArgument(env, "options.logitBiasTexts: expected an array of strings");
    const Napi::Array textArray = texts.As<Napi::Array>();
    for (uint32_t index = 0; index < textArray.Length(); index++) {
      const Napi::Value text = textArray.Get(index);
      if (!text.IsString() || text.As<Napi::String>().Utf8Value().empty()) {
        throw addon_errors::invalidArgument(env, "options.logitBiasTexts[" + std::to_string(index) + "]: expected a non-empty string");
      }
      input.logitBiasTexts.push_back(text.As<Napi::String>().Utf8Value());
    }
  }
  return input;
}

}  // namespace

Napi::Value replayGrammarMasks(const Napi::CallbackInfo& info, std::shared_ptr<ModelResource> model) {
  ReplayInput input = parseInput(info, model->vocabularySize);
  auto* worker = new ReplayGrammarMasksWorker(info.Env(), std::move(model), std::move(input));
  worker->Queue();
  return worker->promise();
}
