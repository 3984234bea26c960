import type { GenerateResult } from "../../core/schemas/generate-result.js";
import { taskText } from "../../frontier/labelling/task-text.js";
import type { ClusterStepOutcome, EnvironmentClusters } from "../../environments/environment.js";

/**
 * The default cluster outcomes: every scored rollout of the clustered type is
 * one attempt at its cluster, solved when the mean of its rewards is
 * positive; the latest task is the first Step's prompt as text.
 */
export function clusterOutcomesByReward(results: readonly GenerateResult[], clusters: EnvironmentClusters): ClusterStepOutcome[] {
  const byCluster = new Map<string, { attempts: number; solved: number; latestTask: string }>();
  for (const result of results) {
    if (result.outcome.status !== "scored" || result.rollout.episodeType !== clusters.episodeType) continue;
    const cluster = clusters.of(result.rollout.artifact);
    const rewards = Object.values(result.rewards);
    const solved = rewards.length > 0 && rewards.reduce((sum, reward) => sum + reward, 0) / rewards.length > 0;
    const entry = byCluster.get(cluster) ?? { attempts: 0, solved: 0, latestTask: cluster };
    entry.attempts++;
    entry.solved += solved ? 1 : 0;
    const firstStep = result.rollout.steps[0];
    if (firstStep) entry.latestTask = taskText(firstStep.prompt);
    byCluster.set(cluster, entry);
  }
  return [...byCluster]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([cluster, entry]) => ({ cluster, firstAttemptRate: entry.solved / entry.attempts, successRate: entry.solved / entry.attempts, trajectories: entry.attempts, latestTask: entry.latestTask }));
}
