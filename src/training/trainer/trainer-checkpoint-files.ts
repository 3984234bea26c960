import { mkdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { InvalidInputError } from "../../core/errors/index.js";
import { parseInput } from "../../core/parse-input.js";
import { writeFileAtomic } from "../../core/write-file-atomic.js";
import { TRAINER_CHECKPOINT_FILES, TrainerCheckpointManifestSchema, type TrainerCheckpointManifest } from "./trainer-checkpoint.js";

/** The paths of a trainer checkpoint folder's files. */
export function trainerCheckpointPaths(directory: string): { weights: string; optimizer: string; manifest: string } {
  return {
    weights: join(directory, TRAINER_CHECKPOINT_FILES.weights),
    optimizer: join(directory, TRAINER_CHECKPOINT_FILES.optimizer),
    manifest: join(directory, TRAINER_CHECKPOINT_FILES.manifest),
  };
}

/** What a backend hands `saveTrainerCheckpoint`: who it is, and how to write its weights and moments. */
export interface TrainerCheckpointParts {
  manifest: Omit<TrainerCheckpointManifest, "format" | "version" | "optimizer">;
  /** Writes weights.gguf: the full model or the adapter. */
  writeWeights: (path: string) => Promise<unknown>;
  /** Writes optimizer.gguf; absent before the first optimizer step (no moments yet). */
  writeOptimizer: ((path: string) => Promise<void>) | undefined;
}

/**
 * Writes a trainer checkpoint folder in the one format: weights.gguf, then
 * optimizer.gguf (if there are moments), then the manifest by rename — a
 * folder without trainer.json is no checkpoint.
 */
export async function saveTrainerCheckpoint(directory: string, parts: TrainerCheckpointParts): Promise<void> {
  await mkdir(directory, { recursive: true });
  const paths = trainerCheckpointPaths(directory);
  await parts.writeWeights(paths.weights);
  if (parts.writeOptimizer) await parts.writeOptimizer(paths.optimizer);
  const manifest: TrainerCheckpointManifest = { format: "selfplay-trainer-checkpoint", version: 1, ...parts.manifest, optimizer: parts.writeOptimizer !== undefined };
  await writeFileAtomic(paths.manifest, `${JSON.stringify(manifest)}\n`);
}

/**
 * Reads a checkpoint folder's manifest and checks it belongs to this base
 * model and kind of trainable weights (any backend may have written it).
 */
export async function readTrainerManifest(directory: string, expected: { modelPath: string; weights: string }): Promise<TrainerCheckpointManifest> {
  const path = trainerCheckpointPaths(directory).manifest;
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch {
    throw new InvalidInputError(path, "a trainer checkpoint manifest (a folder Trainer.saveCheckpoint wrote)", "missing");
  }
  const manifest = parseInput(TrainerCheckpointManifestSchema, JSON.parse(text), { fieldName: (segments) => `${path}: ${segments.map(String).join(".")}` });
  if (manifest.modelPath !== expected.modelPath) throw new InvalidInputError(`${path}: modelPath`, `the trainer's base model ${expected.modelPath}`, manifest.modelPath);
  if (manifest.weights !== expected.weights) throw new InvalidInputError(`${path}: weights`, `"${expected.weights}", what this trainer trains`, manifest.weights);
  return manifest;
}
