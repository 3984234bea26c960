import { mkdir, readdir, unlink } from "node:fs/promises";
import { join } from "node:path";
import type { JsonObject } from "../../core/json.js";
import { writeFileAtomic } from "../../core/write-file-atomic.js";
import { CHECKPOINT_FOLDER, checkpointManifestPath, parseCheckpointFileName } from "./checkpoint-paths.js";

/**
 * Makes step `step`'s checkpoint the newest: writes its manifest (write, then
 * rename, so it is whole or absent), then deletes the files of older steps.
 * Everything the manifest points at must be on disk before this is called: a
 * manifest is the mark that its checkpoint is complete.
 */
export async function commitCheckpoint(directory: string, step: number, manifest: JsonObject): Promise<void> {
  await mkdir(join(directory, CHECKPOINT_FOLDER), { recursive: true });
  await writeFileAtomic(checkpointManifestPath(directory, step), `${JSON.stringify(manifest)}\n`);
  for (const name of await readdir(join(directory, CHECKPOINT_FOLDER))) {
    const parsed = parseCheckpointFileName(name);
    // Older steps' files, and the temporary files a killed write left behind.
    const stale = parsed !== undefined && (parsed.step < step || name.endsWith(".tmp"));
    if (stale) await unlink(join(directory, CHECKPOINT_FOLDER, name)).catch(() => undefined);
  }
}
