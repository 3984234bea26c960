import { constants } from "node:fs";
import { lstat, mkdir, open, readdir, rm } from "node:fs/promises";
import { join } from "node:path";
import type { SandboxCopyOut } from "./sandbox-result.js";

/**
 * Copies the regular files of the run's `/work` (read through
 * `/proc/<pid>/root/work` while its mount namespace still lives) into the
 * caller's work directory, at most `maxBytes` in all. Nothing is followed:
 * entries are lstat'ed, files opened with O_NOFOLLOW, and the bytes read are
 * bounded by the cap whatever size a file claims (a sparse file can claim
 * terabytes in a small tmpfs). On the host side an entry in the way that is
 * not of the same kind (a symbolic link the caller left where the program
 * wrote a file) is removed rather than written through. Copies get mode 0644
 * and the host's owner: no setuid bit survives. Symbolic links, devices and
 * files past the cap are listed in `refused`.
 */
export async function copyResultsOut(from: string, to: string, maxBytes: number): Promise<SandboxCopyOut> {
  const copied: SandboxCopyOut = { files: 0, bytes: 0, refused: [] };
  const visit = async (relative: string): Promise<void> => {
    for (const entry of await readdir(join(from, relative), { withFileTypes: true })) {
      const path = relative === "" ? entry.name : `${relative}/${entry.name}`;
      const origin = join(from, path);
      const destination = join(to, path);
      const existing = await lstat(destination).catch(() => undefined);
      if (entry.isDirectory()) {
        if (existing !== undefined && !existing.isDirectory()) await rm(destination, { force: true });
        await mkdir(destination, { recursive: true, mode: 0o755 });
        await visit(path);
        continue;
      }
      if (!entry.isFile()) {
        copied.refused.push(`${path}: not a regular file`);
        continue;
      }
      const source = await open(origin, constants.O_RDONLY | constants.O_NOFOLLOW);
      try {
        const { size } = await source.stat();
        if (copied.bytes + size > maxBytes) {
          copied.refused.push(`${path}: past the copy-out cap of ${maxBytes} bytes`);
          continue;
        }
        const buffer = Buffer.alloc(size);
        let filled = 0;
        while (filled < size) {
          const { bytesRead } = await source.read(buffer, filled, size - filled, filled);
          if (bytesRead === 0) break;
          filled += bytesRead;
        }
        if (existing !== undefined && !existing.isFile()) await rm(destination, { recursive: true, force: true });
        const target = await open(destination, constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC | constants.O_NOFOLLOW, 0o644);
        try {
          await target.writeFile(buffer.subarray(0, filled));
          await target.chmod(0o644);
        } finally {
          await target.close();
        }
        copied.files += 1;
        copied.bytes += filled;
      } finally {
        await source.close();
      }
    }
  };
  await visit("");
  return copied;
}
