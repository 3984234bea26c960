import { constants } from "node:fs";
import { open } from "node:fs/promises";
import { join } from "node:path";

/** Largest output file handed to a validator; a longer one is cut here (the validator then judges it). */
export const MAX_OUTPUT_BYTES = 4 * 1024 * 1024;

/**
 * The solution's output file as UTF-8, or null when it is absent or not a
 * regular file. Opened without following symlinks: a solution must not make
 * the host read a file outside its directory.
 */
export async function readOutputFile(directory: string, outputFile: string): Promise<string | null> {
  let handle;
  try {
    handle = await open(join(directory, outputFile), constants.O_RDONLY | constants.O_NOFOLLOW);
  } catch {
    return null;
  }
  try {
    if (!(await handle.stat()).isFile()) return null;
    const buffer = Buffer.alloc(MAX_OUTPUT_BYTES);
    const { bytesRead } = await handle.read(buffer, 0, MAX_OUTPUT_BYTES, 0);
    return buffer.subarray(0, bytesRead).toString("utf8");
  } finally {
    await handle.close();
  }
}
