import { join } from "node:path";
import { z } from "zod";
import { RUN_FILES } from "../../arena/run-directory.js";
import { InvalidInputError } from "../../core/errors/index.js";
import { readJsonl } from "../../core/jsonl/read-jsonl.js";
import { findTrainingCheckpoint } from "../loop/training-checkpoint-files.js";
import type { FrontierConfiguration } from "../../frontier/frontier-configuration.js";
import type { JsonValue } from "../../core/json.js";

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
  /** What the run's task makes of its metrics lines (the arithmetic proposer's distance from its target, say); null without a summariser. */
  taskSummary: Record<string, unknown> | null;
}

/** A task's own reading of a run's metrics.jsonl lines, given the environment options the run was configured with. */
export type TrainingRunSummariser = (metricLines: readonly Record<string, unknown>[], environmentOptions: JsonValue | null) => Record<string, unknown>;

/**
 * A run folder's configuration (newest checkpoint) and evaluations
 * (metrics.jsonl, the final one included; lines of runs that predate
 * `elapsedSeconds` cannot be placed in time and are left out).
 */
export async function readTrainingRun(directory: string, summarise?: TrainingRunSummariser): Promise<TrainingRun> {
  const { checkpoint } = await findTrainingCheckpoint(directory);
  if (!checkpoint) throw new InvalidInputError("run", "the folder of a selfplay train run with a complete checkpoint", directory);
  const { records } = await readJsonl(join(directory, RUN_FILES.metrics), z.record(z.string(), z.unknown()));
  const evaluations = records.flatMap((line) => {
    const evaluation = EvaluationLineSchema.safeParse(line);
    return evaluation.success ? [evaluation.data] : [];
  });
  const { configuration } = checkpoint;
  const taskSummary = summarise ? summarise(records, configuration.environment ?? null) : null;
  return { directory, frontier: configuration.frontier.mode, seed: configuration.seed, steps: configuration.steps, evaluations, taskSummary };
}
