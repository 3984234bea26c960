import { InvalidInputError } from "../core/errors/index.js";
import type { GenerateResult } from "../core/schemas/generate-result.js";
import type { Arena, BatchPlanEntry } from "./arena.js";
import { batchMetrics, type BatchMetrics } from "./batch-metrics.js";
import { InOrderAppender } from "./in-order-appender.js";
import type { RunDirectory } from "./run-directory.js";

export interface RunBatchesOptions {
  arena: Arena;
  directory: RunDirectory;
  /** Episode type and group size of every batch. */
  plan: Omit<BatchPlanEntry, "count">;
  /** Prompts to run in all. */
  count: number;
  /** Prompts per batch. */
  batchSize: number;
  /** Milliseconds since some origin; injected so tests need no real time. Default `performance.now`. */
  clock?: () => number;
  /** Called after each finished top-level episode with the count so far. */
  onEpisodeEnd?: (finished: number, total: number) => void;
}

/**
 * Runs `count` episodes in batches through the arena and records them:
 * rollouts in request order, one TrainingBatch and one metrics line per batch.
 */
export async function runBatches(options: RunBatchesOptions): Promise<BatchMetrics[]> {
  const { arena, directory, plan, count, batchSize } = options;
  for (const [field, value] of [["count", count], ["batchSize", batchSize]] as const) {
    if (!Number.isInteger(value) || value < 1) throw new InvalidInputError(field, "an integer ≥ 1", value);
  }
  const clock = options.clock ?? (() => performance.now());
  const groupSize = plan.groupSize ?? 1;
  const total = count * groupSize;
  const rollouts = new InOrderAppender<GenerateResult>(directory.rollouts);
  let written = 0;
  let finished = 0;
  const stopListening = arena.on("rollout-end", ({ index, result }) => {
    rollouts.add(written + index, result);
    options.onEpisodeEnd?.(++finished, total);
  });
  const allMetrics: BatchMetrics[] = [];
  try {
    for (let batch = 0; batch * batchSize < count; batch++) {
      const started = clock();
      const requests = arena.getBatch([{ ...plan, count: Math.min(batchSize, count - batch * batchSize) }]);
      const results = await arena.generateRollouts(requests);
      written += requests.length;
      const trainingBatch = arena.buildTrainingBatch(results, arena.assignCredit(results), batch);
      await rollouts.flushed();
      await directory.trainingBatches.append(trainingBatch);
      const metrics = batchMetrics(batch, results, trainingBatch, clock() - started);
      await directory.metrics.append(metrics);
      allMetrics.push(metrics);
    }
  } finally {
    stopListening();
  }
  return allMetrics;
}
