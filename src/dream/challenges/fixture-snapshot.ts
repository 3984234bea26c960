import { mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import { dirname, join, relative } from "node:path";

/** The files a setup wrote, relative path → bytes; written anew into each directory a later program runs in. */
export type FixtureSnapshot = ReadonlyMap<string, Buffer>;

/** Every regular file under `directory` (symlinks and other entries are left out: a setup has no business making them). */
export async function takeFixtureSnapshot(directory: string): Promise<FixtureSnapshot> {
  const files = new Map<string, Buffer>();
  const entries = await readdir(directory, { recursive: true, withFileTypes: true });
  for (const entry of entries) {
    if (!entry.isFile()) continue;
    const path = join(entry.parentPath, entry.name);
    files.set(relative(directory, path), await readFile(path));
  }
  return files;
}

/** Writes a snapshot into `directory` (which must exist). */
export async function writeFixtureSnapshot(directory: string, snapshot: FixtureSnapshot): Promise<void> {
  for (const [path, bytes] of snapshot) {
    const target = join(directory, path);
    await mkdir(dirname(target), { recursive: true });
    await writeFile(target, bytes);
  }
}
