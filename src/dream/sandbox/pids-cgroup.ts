import { access, mkdir, readFile, rmdir, writeFile } from "node:fs/promises";
import { constants } from "node:fs";
import { join } from "node:path";

/** Where a pids cgroup can be made: cgroup v1's pids hierarchy, or v2's unified tree when it offers the pids controller. */
const CANDIDATE_PARENTS = ["/sys/fs/cgroup/pids", "/sys/fs/cgroup"];

/** A pids cgroup for one run: every process the wrapper starts is counted, and a fork past `pids.max` fails with EAGAIN. */
export interface PidsCgroup {
  path: string;
  /** How many forks `pids.max` refused (the `max` line of pids.events). */
  refusedForks: () => Promise<number>;
  remove: () => Promise<void>;
}

/** Makes a pids cgroup named `name` capped at `maxProcesses`, or returns undefined where none can be made (no permission, no controller). */
export async function createPidsCgroup(name: string, maxProcesses: number): Promise<PidsCgroup | undefined> {
  for (const parent of CANDIDATE_PARENTS) {
    const writable = await access(join(parent, "cgroup.procs"), constants.W_OK).then(() => true, () => false);
    if (!writable) continue;
    const path = join(parent, name);
    try {
      await mkdir(path);
      await writeFile(join(path, "pids.max"), String(maxProcesses));
    } catch {
      await rmdir(path).catch(() => undefined);
      continue;
    }
    return {
      path,
      refusedForks: async () => {
        const events = await readFile(join(path, "pids.events"), "utf8").catch(() => "");
        return Number(/^max (\d+)/m.exec(events)?.[1] ?? 0);
      },
      // A cgroup can be removed only once its last process has been reaped; a killed group takes a moment.
      remove: async () => {
        for (let attempt = 0; attempt < 50; attempt += 1) {
          const removed = await rmdir(path).then(() => true, () => false);
          if (removed) return;
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
      },
    };
  }
  return undefined;
}
