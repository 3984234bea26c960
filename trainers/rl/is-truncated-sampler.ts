import type { SamplerSettings } from "../../src/core/schemas/sampler-settings.js";

/**
 * Whether a Step's sampler cut the distribution with top-k, top-p or min-p:
 * its recorded logprobs are then under the truncated, renormalised
 * distribution, which the trainers do not reproduce (llama.cpp picks the
 * survivors from the behaviour policy's logits, ties by its sort order), so
 * such records are left out rather than trained against another distribution.
 */
export function isTruncatedSampler(sampler: Pick<SamplerSettings, "topK" | "topP" | "minP">): boolean {
  return sampler.topK > 0 || sampler.topP < 1 || sampler.minP > 0;
}
