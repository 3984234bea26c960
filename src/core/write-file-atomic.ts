import { randomBytes } from "node:crypto";
import { rename, writeFile, unlink } from "node:fs/promises";

/**
 * Writes a whole file so that readers see either the old content or the new,
 * never a torn one: write a sibling temporary file, then rename it over.
 */
export async function writeFileAtomic(path: string, content: string | Uint8Array): Promise<void> {
  const temporaryPath = `${path}.${randomBytes(6).toString("hex")}.tmp`;
  try {
    await writeFile(temporaryPath, content);
    await rename(temporaryPath, path);
  } catch (error) {
    await unlink(temporaryPath).catch(() => undefined);
    throw error;
  }
}
