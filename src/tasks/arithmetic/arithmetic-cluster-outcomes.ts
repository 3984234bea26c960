import type { GenerateResult } from "../../core/schemas/generate-result.js";
import { taskText } from "../../frontier/labelling/task-text.js";
import type { ClusterStepOutcome } from "../../environments/environment.js";

/**
 * Per cluster (sorted by name), the solve rates of a step's valid proposals:
 * first-attempt rate = mean share of a problem's solver attempts that were
 * right; success rate = share of problems some attempt solved; trajectories =
 * scored solver attempts; the latest task = the cluster's last problem as its
 * solvers saw it. Invalid proposals gave the solvers nothing to solve and
 * count for no cluster.
 */
export function arithmeticClusterOutcomes(results: readonly GenerateResult[]): ClusterStepOutcome[] {
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
      return { cluster, firstAttemptRate, successRate, trajectories: entry.trajectories, latestTask: entry.latestTask };
    });
}
