import { lstat, mkdir, opendir, readFile, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { FixtureSnapshotTooLargeError } from "../errors/fixture-snapshot-too-large-error.js";

/** The files a setup wrote, relative path → bytes; written anew into each directory a later program runs in. */
export type FixtureSnapshot = ReadonlyMap<string, Buffer>;

/** How much a snapshot may hold: it is read whole into memory and rewritten for every later program. */
export interface FixtureSnapshotLimits {
  /** Bytes of all files together. */
  maxBytes: number;
  /** Regular files. */
  maxFiles: number;
}

/** The sandbox's own tmpfs defaults (64 MiB, 4,096 inodes): a setup that filled its run folder still fits, nothing larger reaches memory. */
export const FIXTURE_SNAPSHOT_LIMITS: FixtureSnapshotLimits = { maxBytes: 64 * 1024 * 1024, maxFiles: 4_096 };

/**
 * Every regular file under `directory` (symlinks and other entries are left
 * out: a setup has no business making them). Sizes are checked with lstat
 * before a file is read, and the walk stops at the first file past a limit
 * with FixtureSnapshotTooLargeError, so a breach never reaches memory.
 */
export async function takeFixtureSnapshot(directory: string, limits: FixtureSnapshotLimits = FIXTURE_SNAPSHOT_LIMITS): Promise<FixtureSnapshot> {
  const files = new Map<string, Buffer>();
  let bytes = 0;
  const visit = async (relative: string): Promise<void> => {
    for await (const entry of await opendir(join(directory, relative))) {
      const path = relative === "" ? entry.name : `${relative}/${entry.name}`;
      if (entry.isDirectory()) {
        await visit(path);
        continue;
      }
      if (!entry.isFile()) continue;
      const { size } = await lstat(join(directory, path));
      bytes += size;
      if (files.size + 1 > limits.maxFiles) throw new FixtureSnapshotTooLargeError("files", limits.maxFiles);
      if (bytes > limits.maxBytes) throw new FixtureSnapshotTooLargeError("bytes", limits.maxBytes);
      files.set(path, await readFile(join(directory, path)));
    }
  };
  await visit("");
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
