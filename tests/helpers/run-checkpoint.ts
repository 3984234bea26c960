import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { JsonObject, JsonValue } from "../../src/core/json.js";
import { CHECKPOINT_FOLDER } from "../../src/training/trainer/checkpoint-paths.js";
import { commitCheckpoint } from "../../src/training/trainer/commit-checkpoint.js";
import { trainerCheckpointPaths } from "../../src/training/trainer/trainer-checkpoint-files.js";
import type { TrainingCheckpoint } from "../../src/training/loop/training-checkpoint.js";
import { TrainingConfigurationSchema } from "../../src/training/loop/training-configuration.js";

/**
 * Makes `directory` a training run folder as far as its environment goes: a
 * step-1 checkpoint of the one format (manifest and trainer folder) recording
 * `environment` and its options and the base model, as `selfplay train` writes it.
 */
export async function writeRunCheckpoint(directory: string, environment: TrainingCheckpoint["environment"], options: JsonValue = {}, modelPath = "/models/base.gguf"): Promise<void> {
  const trainer = join(CHECKPOINT_FOLDER, "step-1.trainer");
  await mkdir(join(directory, trainer), { recursive: true });
  await writeFile(trainerCheckpointPaths(join(directory, trainer)).manifest, "{}\n");
  const checkpoint: TrainingCheckpoint = {
    version: 2,
    step: 1,
    environment,
    modelPath,
    configuration: TrainingConfigurationSchema.parse({ environment: options }),
    trainerBackend: "tfjs",
    trainer,
    arena: {},
    metricsBytes: 0,
    rolloutsBytes: 0,
    frontier: null,
    evaluations: [],
    elapsedSeconds: 1,
    streaks: { nonFiniteUpdates: 0, failingSteps: 0 },
  };
  await commitCheckpoint(directory, 1, JSON.parse(JSON.stringify(checkpoint)) as JsonObject);
}
