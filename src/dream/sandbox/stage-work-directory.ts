import { chmod, copyFile, lstat, mkdir, readdir, readlink, symlink } from "node:fs/promises";
import { join } from "node:path";
import { SandboxOptionsError } from "../errors/sandbox-options-error.js";

/** The caps a staged copy must fit: the tmpfs it will be copied into. */
export interface StageLimits {
  maxBytes: number;
  maxFiles: number;
}

/**
 * Copies the caller's work directory into `target` (which exists), readable by
 * the sandbox's unprivileged uid whatever the source's modes: folders 0755,
 * files 0644 (0755 when executable), symbolic links as they are (inside the
 * sandbox they resolve against its root). Other entries are left out. Refuses
 * a directory that would not fit the run's tmpfs, naming the option to raise.
 */
export async function stageWorkDirectory(source: string, target: string, limits: StageLimits): Promise<void> {
  let bytes = 0;
  let files = 1; // the tmpfs's root folder is an inode too
  const visit = async (from: string, to: string): Promise<void> => {
    for (const entry of await readdir(from, { withFileTypes: true })) {
      const origin = join(from, entry.name);
      const destination = join(to, entry.name);
      files += 1;
      if (files > limits.maxFiles) throw new SandboxOptionsError("workDirectory", `a folder of at most maxFiles (${limits.maxFiles}) entries; raise maxFiles`, source);
      if (entry.isDirectory()) {
        await mkdir(destination, { mode: 0o755 });
        await chmod(destination, 0o755);
        await visit(origin, destination);
      } else if (entry.isFile()) {
        const found = await lstat(origin);
        bytes += found.size;
        if (bytes > limits.maxBytes) throw new SandboxOptionsError("workDirectory", `a folder of at most diskMb (${limits.maxBytes / 1024 / 1024} MiB) of files; raise diskMb`, source);
        await copyFile(origin, destination);
        await chmod(destination, found.mode & 0o111 ? 0o755 : 0o644);
      } else if (entry.isSymbolicLink()) {
        await symlink(await readlink(origin), destination);
      }
    }
  };
  await visit(source, target);
}
