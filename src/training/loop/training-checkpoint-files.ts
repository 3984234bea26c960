import { readdir, rm, stat } from "node:fs/promises";
import { join, resolve } from "node:path";
import { RUN_FILES } from "../../arena/run-directory.js";
import { InvalidInputError } from "../../core/errors/index.js";
import type { JsonObject, JsonValue } from "../../core/json.js";
import { CHECKPOINT_FOLDER, checkpointFilePath, parseCheckpointFileName } from "../trainer/checkpoint-paths.js";
import { commitCheckpoint } from "../trainer/commit-checkpoint.js";
import { findLatestCheckpoint, type LatestCheckpoint } from "../trainer/find-latest-checkpoint.js";
import { jsonDifferences } from "../trainer/json-differences.js";
import { trainerCheckpointPaths } from "../trainer/trainer-checkpoint-files.js";
import type { Trainer } from "../trainer/trainer.js";
import { TrainingCheckpointSchema, type TrainingCheckpoint } from "./training-checkpoint.js";

/** The trainer folder of step `step`'s checkpoint. */
export function trainerCheckpointFolder(directory: string, step: number): string {
  return checkpointFilePath(directory, step, "trainer");
}

/**
 * Writes step `step`'s checkpoint: the trainer's folder first, then the
 * manifest that makes it the newest (by rename); then removes older steps'
 * files and trainer folders.
 */
export async function saveTrainingCheckpoint(
  directory: string,
  trainer: Trainer,
  fields: Omit<TrainingCheckpoint, "version" | "trainer" | "trainerBackend" | "metricsBytes" | "rolloutsBytes">,
): Promise<void> {
  const folder = trainerCheckpointFolder(directory, fields.step);
  await rm(folder, { recursive: true, force: true });
  await trainer.saveCheckpoint(folder);
  const checkpoint: TrainingCheckpoint = {
    version: 2,
    ...fields,
    trainerBackend: trainer.backend,
    trainer: join(CHECKPOINT_FOLDER, `step-${fields.step}.trainer`),
    metricsBytes: (await stat(join(directory, RUN_FILES.metrics))).size,
    rolloutsBytes: (await stat(join(directory, RUN_FILES.rollouts))).size,
  };
  // A JSON round trip drops the configuration's undefined fields, as reading the file back will.
  await commitCheckpoint(directory, fields.step, JSON.parse(JSON.stringify(checkpoint)) as JsonObject);
  for (const name of await readdir(join(directory, CHECKPOINT_FOLDER))) {
    const parsed = parseCheckpointFileName(name);
    if (parsed !== undefined && parsed.step < fields.step && parsed.rest === "trainer") await rm(join(directory, CHECKPOINT_FOLDER, name), { recursive: true, force: true });
  }
}

/**
 * The newest complete checkpoint of a training run folder: its manifest
 * parses, its trainer folder has a manifest, and the logs are at least as
 * long as it recorded. Newer manifests that fail are listed with the reason.
 */
export function findTrainingCheckpoint(directory: string): Promise<LatestCheckpoint<TrainingCheckpoint>> {
  return findLatestCheckpoint(directory, TrainingCheckpointSchema, async (checkpoint) => {
    if ((await sizeOf(trainerCheckpointPaths(resolve(directory, checkpoint.trainer)).manifest)) === undefined) return `its trainer folder ${checkpoint.trainer} has no trainer.json`;
    for (const [file, recorded] of [[RUN_FILES.metrics, checkpoint.metricsBytes], [RUN_FILES.rollouts, checkpoint.rolloutsBytes]] as const) {
      const bytes = (await sizeOf(join(directory, file))) ?? 0;
      if (bytes < recorded) return `${file} has ${bytes} bytes, fewer than the ${recorded} it had then`;
    }
    return undefined;
  });
}

/**
 * Throws unless the model, environment and configuration are the ones the
 * checkpoint's run started with; the message names every field that differs.
 * The device and the update's thread count are not compared: a run may go on
 * on another machine's device and cores.
 */
export function assertSameTrainingRun(directory: string, checkpoint: TrainingCheckpoint, run: { modelPath: string; environment: string; configuration: unknown }): void {
  const asJson = (value: unknown) => JSON.parse(JSON.stringify(value)) as JsonValue;
  // Where the run computes, not what: the device and the update's thread count may change on a resume.
  const compared = (configuration: unknown) => {
    const { trainer, ...rest } = configuration as { trainer?: object };
    return { ...rest, device: undefined, ...(trainer !== undefined && { trainer: { ...trainer, threads: undefined } }) };
  };
  const differences = jsonDifferences(
    asJson({ model: checkpoint.modelPath, env: checkpoint.environment.name, ...compared(checkpoint.configuration) }),
    asJson({ model: resolve(run.modelPath), env: run.environment, ...compared(run.configuration) }),
  );
  if (differences.length === 0) return;
  const listed = differences.map(({ path, before, after }) => `${path} ${JSON.stringify(before)} → ${JSON.stringify(after)}`).join(", ");
  throw new InvalidInputError(
    "--resume",
    `the model, environment and configuration its run started with, but this resume differs in ${listed}; leave out --model, --env, --config, --seed and --steps to go on as it was, or start a new run with --out`,
    directory,
  );
}

async function sizeOf(path: string): Promise<number | undefined> {
  try {
    return (await stat(path)).size;
  } catch {
    return undefined;
  }
}
