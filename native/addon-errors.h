// Errors thrown to JavaScript carry a stable `code`, which the TypeScript
// wrapper maps to selfplay's named errors.
#pragma once

#include <napi.h>

#include <string>

namespace addon_errors {

/** An argument the binding cannot use (wrong type, out of range, unknown token id). */
constexpr const char* INVALID_ARGUMENT = "SELFPLAY_INVALID_ARGUMENT";
/** A grammar llama.cpp cannot parse, or one without the requested root rule. */
constexpr const char* INVALID_GRAMMAR = "SELFPLAY_INVALID_GRAMMAR";
/** The model or engine was disposed. */
constexpr const char* DISPOSED = "SELFPLAY_DISPOSED";
/** llama.cpp failed to load a model, adapter or context. */
constexpr const char* LOAD_FAILED = "SELFPLAY_LOAD_FAILED";
/** Decoding or sampling failed mid-generation. */
constexpr const char* GENERATION_FAILED = "SELFPLAY_GENERATION_FAILED";
/** A recorded token the grammar does not allow where it stands (the tokens were not sampled under that grammar). */
constexpr const char* GRAMMAR_REJECTED_TOKEN = "SELFPLAY_GRAMMAR_REJECTED_TOKEN";

inline Napi::Error coded(Napi::Error error, const char* code) {
  error.Set("code", Napi::String::New(error.Env(), code));
  return error;
}

inline Napi::Error error(Napi::Env env, const char* code, const std::string& message) {
  return coded(Napi::Error::New(env, message), code);
}

inline Napi::Error invalidArgument(Napi::Env env, const std::string& message) {
  return coded(Napi::TypeError::New(env, message), INVALID_ARGUMENT);
}

}  // namespace addon_errors
