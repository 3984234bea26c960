import { join } from "node:path";

/** The folder of a run that holds its checkpoints. */
export const CHECKPOINT_FOLDER = "checkpoints";

/** `step-<k>.json` (the manifest) or `step-<k>.<name>` (a file it points at), step numbers unpadded. */
const CHECKPOINT_FILE = /^step-(\d+)\.(.+)$/;

/** Where the manifest of step `step` lives in run folder `directory`. */
export function checkpointManifestPath(directory: string, step: number): string {
  return join(directory, CHECKPOINT_FOLDER, `step-${step}.json`);
}

/** Where a file of step `step`'s checkpoint lives, e.g. `checkpointFilePath(run, 3, "optimizer.gguf")`. */
export function checkpointFilePath(directory: string, step: number, name: string): string {
  return join(directory, CHECKPOINT_FOLDER, `step-${step}.${name}`);
}

/** The step a file of the checkpoint folder belongs to and what it is, or undefined for anything else. */
export function parseCheckpointFileName(name: string): { step: number; rest: string } | undefined {
  const match = CHECKPOINT_FILE.exec(name);
  if (!match) return undefined;
  return { step: Number(match[1]), rest: match[2] as string };
}
