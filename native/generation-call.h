// One generate() call from JavaScript: its requests, validated, and their results.
#pragma once

#include <atomic>
#include <cstdint>
#include <string>
#include <vector>

#include "request-sampler.h"

enum class FinishReason { Stop, Length, Abort };

struct GenerationRequest {
  std::vector<llama_token> promptTokens;
  /** Already cut to the room the context leaves after the prompt. */
  int32_t maxTokens = 1;
  SamplerSettings sampler;
  /** This request's own grammar state, or null. */
  SamplerPointer grammar;
  std::vector<std::pair<llama_token, float>> logitBias;
  /** UTF-8 strings; the request ends at the token that completes one of them. */
  std::vector<std::string> stopSequences;
};

struct GenerationResult {
  std::vector<llama_token> tokens;
  std::vector<double> logprobs;
  FinishReason finishReason = FinishReason::Length;
};

/**
 * The loop thread writes results and `error`; the JavaScript thread reads them
 * only after the loop reports the call finished. `aborted` is the one field both touch.
 */
struct GenerationCall {
  uint32_t id = 0;
  std::vector<GenerationRequest> requests;
  std::vector<GenerationResult> results;
  size_t unfinished = 0;
  std::atomic<bool> aborted{false};
  /** The first failure of any request; the whole call is rejected with it. */
  std::string error;
};
