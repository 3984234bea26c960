import type { JsonObject } from "../../core/json.js";
import type { GenerateResult } from "../../core/schemas/generate-result.js";
import type { RubricEntry } from "./dataset-rubric.js";

/**
 * Each reward function's share of a step: `<name>.mean` and `<name>.std` of its
 * scores over the scored rollouts (those it did not abstain on; 0 and 0 when
 * it abstained on all), then `<name>.abstained` and `<name>.threw` when not 0 —
 * a function that threw failed its rollouts, which are counted here by name.
 */
export function summariseRewards(rubric: readonly RubricEntry[], results: readonly GenerateResult[]): Record<string, number> {
  const summary: Record<string, number> = {};
  for (const { name } of rubric) {
    const scores: number[] = [];
    let abstained = 0;
    let threw = 0;
    for (const result of results) {
      if (result.outcome.status !== "scored") {
        if (result.outcome.status === "failed" && result.outcome.error.details?.rewardFunction === name) threw++;
        continue;
      }
      const score = ((result.scoreDetails.scores as JsonObject | undefined) ?? {})[name];
      if (typeof score === "number") scores.push(score);
      else abstained++;
    }
    const mean = scores.reduce((sum, score) => sum + score, 0) / Math.max(scores.length, 1);
    summary[`${name}.mean`] = mean;
    summary[`${name}.std`] = Math.sqrt(scores.reduce((sum, score) => sum + (score - mean) ** 2, 0) / Math.max(scores.length, 1));
    if (abstained > 0) summary[`${name}.abstained`] = abstained;
    if (threw > 0) summary[`${name}.threw`] = threw;
  }
  return summary;
}
