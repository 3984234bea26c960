// Draws one request's tokens from the logits the context produced for it, and
// measures the log-probability of each drawn token under the distribution it
// was drawn from (logit bias, grammar mask, truncation and temperature applied).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

#include "llama-library.h"

struct SamplerSettings {
  /** 0 is greedy decoding. */
  float temperature = 1;
  /** 0 keeps every token. */
  int32_t topK = 0;
  /** 1 keeps every token. */
  float topP = 1;
  /** 0 keeps every token. */
  float minP = 0;
  uint32_t seed = 0;
};

struct SampledToken {
  llama_token token;
  /** Natural log of the token's probability, computed in double; 0 under greedy decoding. */
  double logprob;
};

/** Frees a llama_sampler through the bound library. */
struct SamplerDeleter {
  void operator()(llama_sampler* sampler) const;
};
using SamplerPointer = std::unique_ptr<llama_sampler, SamplerDeleter>;

class RequestSampler {
 public:
  /**
   * `grammar` is this request's own grammar state (a clone: it advances with
   * every accepted token), or null. `logitBias` holds valid token ids and finite values.
   */
  RequestSampler(const LlamaLibrary& library, int32_t vocabularySize, const SamplerSettings& settings, SamplerPointer grammar,
                 std::vector<std::pair<llama_token, float>> logitBias);

  /** The next token, or nothing when the grammar allows no token at all. */
  std::optional<SampledToken> sample(const float* logits);

  /** Advances the grammar past a sampled token. */
  void accept(llama_token token, bool endOfGeneration);

 private:
  const LlamaLibrary& library;
  const SamplerSettings settings;
  SamplerPointer grammar;
  const std::vector<std::pair<llama_token, float>> logitBias;
  SamplerPointer topK;
  SamplerPointer topP;
  SamplerPointer minP;
  // Per request, seeded by the request: what it draws does not depend on batching or slots.
  SamplerPointer distribution;
  std::vector<llama_token_data> candidates;
};
