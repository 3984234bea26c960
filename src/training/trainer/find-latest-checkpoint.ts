import { readFile, readdir } from "node:fs/promises";
import { join } from "node:path";
import type { z } from "zod";
import { CHECKPOINT_FOLDER, checkpointManifestPath, parseCheckpointFileName } from "./checkpoint-paths.js";

/** A checkpoint passed over, and why. */
export interface IgnoredCheckpoint {
  path: string;
  reason: string;
}

export interface LatestCheckpoint<T> {
  /** The newest complete checkpoint; undefined when the folder has none. */
  checkpoint: T | undefined;
  /** Newer manifests that were torn, invalid or incomplete, newest first: say so, never skip them silently. */
  ignored: IgnoredCheckpoint[];
}

/**
 * The newest checkpoint of a run folder whose manifest parses against
 * `schema` and passes `problemOf` (which checks that the files it points at
 * are whole: undefined when they are, else what is wrong).
 */
export async function findLatestCheckpoint<T>(
  directory: string,
  schema: z.ZodType<T>,
  problemOf: (checkpoint: T) => Promise<string | undefined>,
): Promise<LatestCheckpoint<T>> {
  const ignored: IgnoredCheckpoint[] = [];
  for (const step of await manifestSteps(directory)) {
    const path = checkpointManifestPath(directory, step);
    let value: unknown;
    try {
      value = JSON.parse(await readFile(path, "utf8"));
    } catch (error) {
      ignored.push({ path, reason: `not readable JSON (${(error as Error).message})` });
      continue;
    }
    const parsed = schema.safeParse(value);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      ignored.push({ path, reason: `${issue?.path.join(".") || "(root)"}: ${issue?.message ?? "invalid"}` });
      continue;
    }
    const problem = await problemOf(parsed.data);
    if (problem !== undefined) {
      ignored.push({ path, reason: problem });
      continue;
    }
    return { checkpoint: parsed.data, ignored };
  }
  return { checkpoint: undefined, ignored };
}

/** Steps that have a manifest, newest first. */
async function manifestSteps(directory: string): Promise<number[]> {
  let names: string[];
  try {
    names = await readdir(join(directory, CHECKPOINT_FOLDER));
  } catch (error) {
    // No checkpoint folder is no checkpoint; any other failure is the caller's to see.
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw error;
  }
  return names
    .map(parseCheckpointFileName)
    .filter((parsed) => parsed !== undefined && parsed.rest === "json")
    .map((parsed) => (parsed as { step: number }).step)
    .sort((left, right) => right - left);
}
