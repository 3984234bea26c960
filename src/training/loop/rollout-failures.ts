import type { FailureStage, GenerateResult } from "../../core/schemas/generate-result.js";

/** The first failed rollout of a step (depth first, in request order): where to look in rollouts.jsonl. */
export interface FirstRolloutFailure {
  rolloutId: string;
  episodeType: string;
  stage: FailureStage;
  error: { name: string; message: string };
}

/** A step's failed rollouts (sub-episodes included): counts by stage and error name, and the first of them. */
export interface RolloutFailures {
  /** e.g. `{score: {TypeError: 40}}`; empty when none failed. */
  byStage: Partial<Record<FailureStage, Record<string, number>>>;
  /** Undefined when none failed. */
  first: FirstRolloutFailure | undefined;
}

/** Counts a step's failed rollouts by stage and error name, and keeps the first for the step's line and a stop's error. */
export function rolloutFailures(results: readonly GenerateResult[]): RolloutFailures {
  const byStage: RolloutFailures["byStage"] = {};
  let first: FirstRolloutFailure | undefined;
  const visit = (result: GenerateResult) => {
    const { outcome } = result;
    if (outcome.status === "failed") {
      const counts = (byStage[outcome.stage] ??= {});
      counts[outcome.error.name] = (counts[outcome.error.name] ?? 0) + 1;
      first ??= { rolloutId: result.rollout.id, episodeType: result.rollout.episodeType, stage: outcome.stage, error: outcome.error };
    }
    result.children.forEach(visit);
  };
  results.forEach(visit);
  return { byStage, first };
}
