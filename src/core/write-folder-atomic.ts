import { randomBytes } from "node:crypto";
import { mkdir, rename, rm } from "node:fs/promises";

/**
 * Builds a folder so that readers see the old folder or the complete new one,
 * never a half-written one: `fill` writes into a temporary sibling, which is
 * then renamed into place. A folder already at `path` is moved aside first
 * and removed after, so between the two renames `path` is briefly absent.
 */
export async function writeFolderAtomic(path: string, fill: (temporaryFolder: string) => Promise<void>): Promise<void> {
  const suffix = randomBytes(6).toString("hex");
  const temporaryFolder = `${path}.${suffix}.tmp`;
  await mkdir(temporaryFolder);
  try {
    await fill(temporaryFolder);
    try {
      await rename(temporaryFolder, path);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== "ENOTEMPTY" && code !== "EEXIST") throw error;
      const previous = `${path}.${suffix}.old`;
      await rename(path, previous);
      await rename(temporaryFolder, path);
      await rm(previous, { recursive: true, force: true });
    }
  } catch (error) {
    await rm(temporaryFolder, { recursive: true, force: true });
    throw error;
  }
}
