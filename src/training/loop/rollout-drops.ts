import type { GenerateResult } from "../../core/schemas/generate-result.js";

/**
 * A step's rollouts its environment dropped by design (sub-episodes included), counted by their reason's name
 * (`{HeldOutProblemError: 2}`); empty when none was. Apart from `rolloutFailures`: a drop is no failure.
 */
export function rolloutDrops(results: readonly GenerateResult[]): Record<string, number> {
  const drops: Record<string, number> = {};
  const visit = (result: GenerateResult) => {
    if (result.outcome.status === "dropped") drops[result.outcome.reason.name] = (drops[result.outcome.reason.name] ?? 0) + 1;
    result.children.forEach(visit);
  };
  results.forEach(visit);
  return drops;
}
