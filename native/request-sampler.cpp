#include "request-sampler.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace {

/** The first of the highest logits, as llama.cpp's greedy sampler picks it; the draw is certain. Nothing when all are masked. */
std::optional<SampledToken> greedy(const llama_token_data_array& current) {
  size_t best = 0;
  for (size_t index = 1; index < current.size; index++) {
    if (current.data[index].logit > current.data[best].logit) best = index;
  }
  if (current.size == 0 || current.data[best].logit == -std::numeric_limits<float>::infinity()) return std::nullopt;
  return SampledToken{current.data[best].id, 0.0};
}

}  // namespace

void SamplerDeleter::operator()(llama_sampler* sampler) const {
  if (sampler != nullptr) llamaLibrary().llama_sampler_free(sampler);
}

RequestSampler::RequestSampler(const LlamaLibrary& library, int32_t vocabularySize, const SamplerSettings& settings,
                               SamplerPointer grammar, std::vector<std::pair<llama_token, float>> logitBias)
    : library(library), settings(settings), grammar(std::move(grammar)), logitBias(std::move(logitBias)), candidates(vocabularySize) {
  // Filters that keep everything are left out: top-k over the whole vocabulary would sort it every token.
  if (settings.topK > 0) topK.reset(library.llama_sampler_init_top_k(settings.topK));
  if (settings.topP < 1) topP.reset(library.llama_sampler_init_top_p(settings.topP, 1));
  if (settings.minP > 0) minP.reset(library.llama_sampler_init_min_p(settings.minP, 1));
  distribution.reset(library.llama_sampler_init_dist(settings.seed));
}

std::optional<SampledToken> RequestSampler::sample(const float* logits) {
  const size_t vocabularySize = candidates.size();
  for (size_t token = 0; token < vocabularySize; token++) {
    candidates[token] = llama_token_data{static_cast<llama_token>(token), logits[token], 0.0f};
  }
  // Candidates are still indexed by token id here.
  for (const auto& [token, bias] : logitBias) candidates[token].logit += bias;
  llama_token_data_array current{candidates.data(), vocabularySize, -1, false};
  if (grammar) library.llama_sampler_apply(grammar.get(), &current);

  if (settings.temperature <= 0) return greedy(current);

  // node-llama-cpp's order: truncate at temperature 1, then scale by the temperature, then draw.
  if (topK) library.llama_sampler_apply(topK.get(), &current);
  if (topP) library.llama_sampler_apply(topP.get(), &current);
  if (minP) library.llama_sampler_apply(minP.get(), &current);
  float largest = -std::numeric_limits<float>::infinity();
  for (size_t index = 0; index < current.size; index++) largest = std::max(largest, current.data[index].logit);
  if (largest == -std::numeric_limits<float>::infinity()) return std::nullopt;
  // A temperature so small that the top logit overflows is greedy decoding in all but name.
  if (!std::isfinite(largest / settings.temperature)) return greedy(current);
  for (size_t index = 0; index < current.size; index++) current.data[index].logit /= settings.temperature;
  const double maximum = static_cast<double>(largest / settings.temperature);
  library.llama_sampler_apply(distribution.get(), &current);
  if (current.selected < 0 || static_cast<size_t>(current.selected) >= current.size) return std::nullopt;

  // The full softmax over what survived, in double: masked tokens (−∞) add nothing.
  double sum = 0;
  for (size_t index = 0; index < current.size; index++) sum += std::exp(static_cast<double>(current.data[index].logit) - maximum);
  const llama_token_data& chosen = current.data[current.selected];
  return SampledToken{chosen.id, static_cast<double>(chosen.logit) - maximum - std::log(sum)};
}

void RequestSampler::accept(llama_token token, bool endOfGeneration) {
  // llama.cpp's grammar aborts on an end-of-generation token; generation ends there anyway.
  if (grammar && !endOfGeneration) library.llama_sampler_accept(grammar.get(), token);
}
