import { join } from "node:path";
import { z } from "zod";
import { RUN_FILES } from "../../src/arena/run-directory.js";
import { InvalidInputError } from "../../src/core/errors.js";
import { readJsonl } from "../../src/core/jsonl/read-jsonl.js";
import { findTrainingCheckpoint } from "../train/training-checkpoint-files.js";
import type { FrontierConfiguration } from "./frontier-configuration.js";
import { proposerTargetGapOfMetrics, type ProposerTargetGap } from "./proposer-target-gap.js";

/** A held-out evaluation line of metrics.jsonl (step lines have no `heldOutAccuracy`). */
const EvaluationLineSchema = z.object({ step: z.number().int().min(0), heldOutAccuracy: z.number(), elapsedSeconds: z.number().min(0) });

/** What a comparison of `selfplay train` runs needs of one run. */
export interface TrainingRun {
  directory: string;
  frontier: FrontierConfiguration["mode"];
  seed: number;
  /** Steps the run was configured for. */
  steps: number;
  /** Its held-out evaluations so far, with the wall-clock seconds each finished at. */
  evaluations: z.infer<typeof EvaluationLineSchema>[];
  /** The proposer's distance from its target pass rate, first vs last 10% of the steps so far; null before a step with a valid proposal. */
  proposerTargetGap: ProposerTargetGap | null;
}

/**
 * A run folder's configuration (newest checkpoint) and evaluations
 * (metrics.jsonl, the final one included; lines of runs that predate
 * `elapsedSeconds` cannot be placed in time and are left out).
 */
export async function readTrainingRun(directory: string): Promise<TrainingRun> {
  const { checkpoint } = await findTrainingCheckpoint(directory);
  if (!checkpoint) throw new InvalidInputError("run", "the folder of a selfplay train run with a complete checkpoint", directory);
  const { records } = await readJsonl(join(directory, RUN_FILES.metrics), z.record(z.string(), z.unknown()));
  const evaluations = records.flatMap((line) => {
    const evaluation = EvaluationLineSchema.safeParse(line);
    return evaluation.success ? [evaluation.data] : [];
  });
  const { configuration } = checkpoint;
  const target = (configuration.environment as { targetPassRate?: unknown } | null)?.targetPassRate;
  const proposerTargetGap = proposerTargetGapOfMetrics(records, typeof target === "number" ? target : 0.5);
  return { directory, frontier: configuration.frontier.mode, seed: configuration.seed, steps: configuration.steps, evaluations, proposerTargetGap };
}
