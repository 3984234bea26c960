import { stat } from "node:fs/promises";
import { join, resolve } from "node:path";
import { RUN_FILES } from "../../src/arena/run-directory.js";
import { findLatestCheckpoint, type LatestCheckpoint } from "../checkpoint/find-latest-checkpoint.js";
import { SelfPlayCheckpointSchema, type SelfPlayCheckpoint } from "./self-play-checkpoint.js";

/**
 * The newest complete checkpoint of a `selfplay train` run folder: its
 * manifest parses, and the weights, optimizer state, metrics and rollouts it
 * points at are on disk at the sizes it recorded (the logs at least that long). Newer manifests that fail are listed.
 */
export function findSelfPlayCheckpoint(directory: string): Promise<LatestCheckpoint<SelfPlayCheckpoint>> {
  return findLatestCheckpoint(directory, SelfPlayCheckpointSchema, async (checkpoint) => {
    const files = [
      { what: "weights", file: checkpoint.weights },
      ...(checkpoint.optimizer === null ? [] : [{ what: "optimizer state", file: checkpoint.optimizer }]),
    ];
    for (const { what, file } of files) {
      const bytes = await sizeOf(resolve(directory, file.path));
      if (bytes === undefined) return `its ${what} ${file.path} is missing`;
      if (bytes !== file.bytes) return `its ${what} ${file.path} has ${bytes} bytes, not the ${file.bytes} it was saved with`;
    }
    for (const [file, recorded] of [[RUN_FILES.metrics, checkpoint.metricsBytes], [RUN_FILES.rollouts, checkpoint.rolloutsBytes]] as const) {
      const bytes = (await sizeOf(join(directory, file))) ?? 0;
      if (bytes < recorded) return `${file} has ${bytes} bytes, fewer than the ${recorded} it had then`;
    }
    return undefined;
  });
}

async function sizeOf(path: string): Promise<number | undefined> {
  try {
    return (await stat(path)).size;
  } catch {
    return undefined;
  }
}
