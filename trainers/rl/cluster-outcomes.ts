import type { GenerateResult } from "../../src/core/schemas/generate-result.js";
import type { ClusterOutcome } from "../../src/curriculum/frontier/cluster-outcome.js";
import { taskText } from "../../src/curriculum/labelling/task-text.js";

/** What a step's valid proposals of one cluster came to. */
export interface ClusterStepSummary {
  /** The tracker's outcome: first-attempt rate = mean share of a problem's solver attempts that were right; success rate = share of problems some attempt solved. */
  outcome: ClusterOutcome;
  /** Scored solver attempts: the trajectories the step added to the cluster. */
  trajectories: number;
  /** The last problem of the step in the cluster, as its solvers saw it (`taskText`). */
  latestTask: string;
}

/**
 * Per cluster (sorted by name), the solve rates of a step's valid proposals.
 * Invalid proposals gave the solvers nothing to solve and count for no cluster.
 */
export function clusterStepSummaries(results: readonly GenerateResult[]): ClusterStepSummary[] {
  const byCluster = new Map<string, { passRates: number[]; solved: number; trajectories: number; latestTask: string }>();
  for (const result of results) {
    const { artifacts } = result.rollout;
    if (result.outcome.status !== "scored" || artifacts.verdict !== "valid" || typeof artifacts.cluster !== "string") continue;
    const attempts = result.children.filter((child) => child.outcome.status === "scored");
    const firstStep = attempts[0]?.rollout.steps[0];
    if (!firstStep) continue;
    const passes = attempts.filter((child) => child.rewards.solver === 1).length;
    const entry = byCluster.get(artifacts.cluster) ?? { passRates: [], solved: 0, trajectories: 0, latestTask: "" };
    entry.passRates.push(passes / attempts.length);
    entry.solved += passes > 0 ? 1 : 0;
    entry.trajectories += attempts.length;
    entry.latestTask = taskText(firstStep.prompt);
    byCluster.set(artifacts.cluster, entry);
  }
  return [...byCluster]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([cluster, entry]) => {
      const successRate = entry.solved / entry.passRates.length;
      // The mean of per-problem rates never exceeds the share solved; min() only guards the last bit of rounding.
      const firstAttemptRate = Math.min(successRate, entry.passRates.reduce((sum, rate) => sum + rate, 0) / entry.passRates.length);
      return { outcome: { cluster, firstAttemptRate, successRate }, trajectories: entry.trajectories, latestTask: entry.latestTask };
    });
}
