#include "request-parsing.h"

#include <cmath>
#include <limits>

#include "addon-errors.h"

namespace {

/** Reads fields of one request object, naming the field in every error. */
class FieldReader {
 public:
  FieldReader(Napi::Object object, std::string where) : object(object), where(std::move(where)) {}

  double number(const char* key, double minimum, double maximum) const {
    const Napi::Value value = object.Get(key);
    if (!value.IsNumber()) throw fail(key, "a number");
    const double number = value.As<Napi::Number>().DoubleValue();
    if (!std::isfinite(number) || number < minimum || number > maximum) {
      throw fail(key, "a number in [" + format(minimum) + ", " + format(maximum) + "], got " + format(number));
    }
    return number;
  }

  int64_t integer(const char* key, int64_t minimum, int64_t maximum) const {
    const double value = number(key, static_cast<double>(minimum), static_cast<double>(maximum));
    if (std::floor(value) != value) throw fail(key, "an integer, got " + format(value));
    return static_cast<int64_t>(value);
  }

  bool has(const char* key) const {
    const Napi::Value value = object.Get(key);
    return !value.IsUndefined() && !value.IsNull();
  }

  std::string string(const char* key) const {
    const Napi::Value value = object.Get(key);
    if (!value.IsString()) throw fail(key, "a string");
    return value.As<Napi::String>().Utf8Value();
  }

  Napi::TypedArray typedArray(const char* key, napi_typedarray_type type, const char* expected) const {
    const Napi::Value value = object.Get(key);
    if (!value.IsTypedArray() || value.As<Napi::TypedArray>().TypedArrayType() != type) throw fail(key, expected);
    return value.As<Napi::TypedArray>();
  }

  Napi::Array array(const char* key) const {
    const Napi::Value value = object.Get(key);
    if (!value.IsArray()) throw fail(key, "an array");
    return value.As<Napi::Array>();
  }

  Napi::Error fail(const char* key, const std::string& expected) const {
    return addon_errors::invalidArgument(object.Env(), where + "." + key + ": expected " + expected);
  }

 private:
  static std::string format(double value) {
    if (std::floor(value) == value && std::abs(value) < 1e15) return std::to_string(static_cast<int64_t>(value));
    return std::to_string(value);
  }

  Napi::Object object;
  std::string where;
};

std::vector<llama_token> readPrompt(const FieldReader& fields, const RequestLimits& limits) {
  const auto array = fields.typedArray("promptTokens", napi_int32_array, "an Int32Array").As<Napi::Int32Array>();
  const size_t length = array.ElementLength();
  if (length == 0) throw fields.fail("promptTokens", "at least one token");
  if (length >= static_cast<size_t>(limits.contextPerSequence)) {
    throw fields.fail("promptTokens", "fewer tokens than the context of " + std::to_string(limits.contextPerSequence) + ", got " +
                                          std::to_string(length));
  }
  std::vector<llama_token> tokens(array.Data(), array.Data() + length);
  for (const llama_token token : tokens) {
    if (token < 0 || token >= limits.vocabularySize) {
      throw fields.fail("promptTokens", "token ids in [0, " + std::to_string(limits.vocabularySize) + "), got " + std::to_string(token));
    }
  }
  return tokens;
}

std::vector<std::pair<llama_token, float>> readLogitBias(const FieldReader& fields, const RequestLimits& limits) {
  if (!fields.has("logitBiasTokens") && !fields.has("logitBiasValues")) return {};
  const auto tokens = fields.typedArray("logitBiasTokens", napi_int32_array, "an Int32Array").As<Napi::Int32Array>();
  const auto values = fields.typedArray("logitBiasValues", napi_float64_array, "a Float64Array").As<Napi::Float64Array>();
  if (tokens.ElementLength() != values.ElementLength()) throw fields.fail("logitBiasValues", "one value per token of logitBiasTokens");
  std::vector<std::pair<llama_token, float>> bias;
  for (size_t index = 0; index < tokens.ElementLength(); index++) {
    if (tokens[index] < 0 || tokens[index] >= limits.vocabularySize) {
      throw fields.fail("logitBiasTokens", "token ids in [0, " + std::to_string(limits.vocabularySize) + ")");
    }
    if (!std::isfinite(values[index])) throw fields.fail("logitBiasValues", "finite numbers");
    bias.emplace_back(tokens[index], static_cast<float>(values[index]));
  }
  return bias;
}

std::vector<std::string> readStopSequences(const FieldReader& fields) {
  if (!fields.has("stopSequences")) return {};
  const Napi::Array array = fields.array("stopSequences");
  std::vector<std::string> sequences;
  for (uint32_t index = 0; index < array.Length(); index++) {
    const Napi::Value value = array.Get(index);
    if (!value.IsString() || value.As<Napi::String>().Utf8Value().empty()) throw fields.fail("stopSequences", "non-empty strings");
    sequences.push_back(value.As<Napi::String>().Utf8Value());
  }
  return sequences;
}

GenerationRequest parseRequest(Napi::Value value, const std::string& where, const RequestLimits& limits, GrammarCache& grammars) {
  if (!value.IsObject()) throw addon_errors::invalidArgument(value.Env(), where + ": expected a request object");
  const FieldReader fields(value.As<Napi::Object>(), where);
  GenerationRequest request;
  request.promptTokens = readPrompt(fields, limits);
  // The context's room after the prompt bounds the completion, as node-llama-cpp's path does.
  const int64_t room = limits.contextPerSequence - static_cast<int64_t>(request.promptTokens.size());
  request.maxTokens = static_cast<int32_t>(std::min(fields.integer("maxTokens", 1, std::numeric_limits<int32_t>::max()), room));
  request.sampler.temperature = static_cast<float>(fields.number("temperature", 0, std::numeric_limits<float>::max()));
  request.sampler.topK = static_cast<int32_t>(fields.integer("topK", 0, std::numeric_limits<int32_t>::max()));
  request.sampler.topP = static_cast<float>(fields.number("topP", 0, 1));
  if (request.sampler.topP <= 0) throw fields.fail("topP", "a number in (0, 1]");
  request.sampler.minP = static_cast<float>(fields.number("minP", 0, 1));
  request.sampler.seed = static_cast<uint32_t>(fields.integer("seed", 0, std::numeric_limits<uint32_t>::max()));
  request.logitBias = readLogitBias(fields, limits);
  request.stopSequences = readStopSequences(fields);
  if (fields.has("grammar")) {
    const std::string grammar = fields.string("grammar");
    const std::string root = fields.has("grammarRoot") ? fields.string("grammarRoot") : "root";
    if (grammar.empty()) throw fields.fail("grammar", "a non-empty GBNF grammar");
    request.grammar = grammars.stateFor(grammar, root);
    if (!request.grammar) {
      throw addon_errors::error(value.Env(), addon_errors::INVALID_GRAMMAR,
                                where + ".grammar: expected a GBNF grammar llama.cpp can parse, with a rule named \"" + root +
                                    "\" (llama.cpp's log says what is wrong)");
    }
  }
  return request;
}

}  // namespace

std::vector<GenerationRequest> parseRequests(Napi::Value value, const RequestLimits& limits, GrammarCache& grammars) {
  if (!value.IsArray()) throw addon_errors::invalidArgument(value.Env(), "requests: expected an array of request objects");
  const Napi::Array array = value.As<Napi::Array>();
  std::vector<GenerationRequest> requests;
  requests.reserve(array.Length());
  for (uint32_t index = 0; index < array.Length(); index++) {
    requests.push_back(parseRequest(array.Get(index), "requests[" + std::to_string(index) + "]", limits, grammars));
  }
  return requests;
}
