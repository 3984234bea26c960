import type { SamplerSettings } from "../../core/schemas/sampler-settings.js";

/**
 * Whether a Step's sampler cut the distribution with top-k, top-p or min-p:
 * its recorded logprobs are then under the truncated, renormalised
 * distribution, and a trainer must score it under the same truncation
 * (`truncationSurvivors`) or leave it out.
 */
export function isTruncatedSampler(sampler: Pick<SamplerSettings, "topK" | "topP" | "minP">): boolean {
  return sampler.topK > 0 || sampler.topP < 1 || sampler.minP > 0;
}
