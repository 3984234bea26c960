import type { GenerateResult } from "../core/schemas/generate-result.js";
import type { TrainingBatch } from "../core/schemas/training-record.js";
import {
  addStructuredOutputStats,
  emptyStructuredOutputs,
  type StructuredOutputs,
} from "../core/structured/structured-output-stats.js";
import { walkResults } from "./walk-results.js";

/** One line of `metrics.jsonl`: what a batch produced, how it failed, and how long it took. */
export interface BatchMetrics {
  batch: number;
  episodes: number;
  /** Rollouts including sub-episodes. */
  rollouts: number;
  scored: number;
  failed: number;
  /** Rollouts their environment dropped by design (a `DroppedRolloutError`): neither scored nor failed. */
  dropped: number;
  failuresByStage: Record<string, number>;
  failuresByError: Record<string, number>;
  /** Dropped rollouts by their reason's name (`{HeldOutProblemError: 2}`). */
  dropsByReason: Record<string, number>;
  judgeCalls: number;
  /** Schema-bound calls of roles and of the judge: first-try validity and resamples. */
  structuredOutputs: StructuredOutputs;
  meanReward: Record<string, number>;
  /** Scored rollouts behind each role's mean reward. */
  rewardCounts: Record<string, number>;
  steps: number;
  completionTokens: number;
  trainingRecords: number;
  elapsedMs: number;
  completionTokensPerSecond: number;
}

export function batchMetrics(
  batch: number,
  results: readonly GenerateResult[],
  trainingBatch: TrainingBatch,
  elapsedMs: number,
): BatchMetrics {
  const metrics: BatchMetrics = {
    batch,
    episodes: results.length,
    rollouts: 0,
    scored: 0,
    failed: 0,
    dropped: 0,
    failuresByStage: {},
    failuresByError: {},
    dropsByReason: {},
    judgeCalls: 0,
    structuredOutputs: emptyStructuredOutputs(),
    meanReward: {},
    rewardCounts: {},
    steps: 0,
    completionTokens: 0,
    trainingRecords: trainingBatch.records.length,
    elapsedMs,
    completionTokensPerSecond: 0,
  };
  const rewardSums = new Map<string, { sum: number; count: number }>();
  for (const result of walkResults(results)) {
    metrics.rollouts++;
    metrics.judgeCalls += result.judgeCalls;
    addStructuredOutputStats(metrics.structuredOutputs.role, result.structuredOutputs.role);
    addStructuredOutputStats(metrics.structuredOutputs.judge, result.structuredOutputs.judge);
    metrics.steps += result.rollout.steps.length;
    for (const step of result.rollout.steps) metrics.completionTokens += step.completionTokenIds.length;
    if (result.outcome.status === "failed") {
      metrics.failed++;
      increment(metrics.failuresByStage, result.outcome.stage);
      increment(metrics.failuresByError, result.outcome.error.name);
      continue;
    }
    if (result.outcome.status === "dropped") {
      metrics.dropped++;
      increment(metrics.dropsByReason, result.outcome.reason.name);
      continue;
    }
    metrics.scored++;
    for (const [roleId, reward] of Object.entries(result.rewards)) {
      const total = rewardSums.get(roleId) ?? { sum: 0, count: 0 };
      total.sum += reward;
      total.count++;
      rewardSums.set(roleId, total);
    }
  }
  for (const [roleId, { sum, count }] of rewardSums) {
    metrics.meanReward[roleId] = sum / count;
    metrics.rewardCounts[roleId] = count;
  }
  metrics.completionTokensPerSecond = elapsedMs > 0 ? (metrics.completionTokens * 1000) / elapsedMs : 0;
  return metrics;
}

function increment(counts: Record<string, number>, key: string): void {
  counts[key] = (counts[key] ?? 0) + 1;
}
