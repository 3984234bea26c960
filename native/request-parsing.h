// Turns the requests of a generate() call into validated C++ values. Every
// check llama.cpp would otherwise fail on (by aborting the process) is made
// here, on the JavaScript thread, and reported as a JavaScript error.
#pragma once

#include <napi.h>

#include <vector>

#include "generation-call.h"
#include "grammar-cache.h"

struct RequestLimits {
  int32_t vocabularySize;
  /** Tokens of context each sequence has: prompt and completion together. */
  int32_t contextPerSequence;
};

/** Throws Napi errors coded INVALID_ARGUMENT or INVALID_GRAMMAR. */
std::vector<GenerationRequest> parseRequests(Napi::Value requests, const RequestLimits& limits, GrammarCache& grammars);
