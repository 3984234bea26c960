import { access, mkdir, readFile, rmdir, writeFile } from "node:fs/promises";
import { constants } from "node:fs";
import { join } from "node:path";

/** The cgroups one run joins, and the counters the verdict is read from. */
export interface RunCgroups {
  /** Folders whose `cgroup.procs` the wrapper writes its pid to before anything forks. */
  paths: string[];
  /** Present when a memory cgroup was made. */
  memory: { oomKills: () => Promise<number> } | undefined;
  /** Present when a pids cgroup was made. */
  pids: { refusedForks: () => Promise<number> } | undefined;
  /** Removes the cgroups once their last process has been reaped. */
  remove: () => Promise<void>;
}

/** What the run's cgroups cap. */
export interface RunCgroupsOptions {
  /** `pids.max`: tasks (processes and threads) at once. */
  maxProcesses: number;
  /** The memory limit in bytes: the program's memory plus its tmpfs, whose pages are charged to the writer. */
  memoryBytes: number;
}

/** Where this process sits in each hierarchy: `/proc/self/cgroup` lines `id:controllers:path` (`0::path` is v2). */
async function ownCgroupPaths(): Promise<Map<string, string>> {
  const text = await readFile("/proc/self/cgroup", "utf8").catch(() => "");
  const paths = new Map<string, string>();
  for (const line of text.split("\n")) {
    const [, controllers, path] = /^\d+:([^:]*):(.*)$/.exec(line) ?? [];
    if (path === undefined) continue;
    for (const controller of (controllers ?? "").split(",")) paths.set(controller === "" ? "unified" : controller, path);
  }
  return paths;
}

/**
 * One controller's ways to make a child cgroup under this process's own (so any limit the host set on us still
 * applies): cgroup v1's own hierarchy first, then v2's unified tree when it is mounted at /sys/fs/cgroup.
 */
function candidateParents(controller: "memory" | "pids", own: Map<string, string>): { parent: string; version: 1 | 2 }[] {
  const candidates: { parent: string; version: 1 | 2 }[] = [];
  const v1 = own.get(controller);
  if (v1 !== undefined) candidates.push({ parent: join("/sys/fs/cgroup", controller, v1), version: 1 });
  const v2 = own.get("unified");
  if (v2 !== undefined) candidates.push({ parent: join("/sys/fs/cgroup", v2), version: 2 });
  return candidates;
}

/** Makes `name` under the first writable parent and writes its limits; undefined where none takes them. */
async function makeCgroup(name: string, candidates: { parent: string; version: 1 | 2 }[], limits: (version: 1 | 2) => [string, string][]): Promise<{ path: string; version: 1 | 2 } | undefined> {
  for (const { parent, version } of candidates) {
    const writable = await access(join(parent, "cgroup.procs"), constants.W_OK).then(() => true, () => false);
    if (!writable) continue;
    const path = join(parent, name);
    try {
      await mkdir(path);
      for (const [file, value] of limits(version)) await writeFile(join(path, file), value);
      return { path, version };
    } catch {
      await rmdir(path).catch(() => undefined);
    }
  }
  return undefined;
}

/** The number after `key ` on its own line of a counters file (`oom_kill 1`, `max 3`); 0 when absent. */
async function readCounter(file: string, key: string): Promise<number> {
  const text = await readFile(file, "utf8").catch(() => "");
  return Number(new RegExp(`^${key} (\\d+)`, "m").exec(text)?.[1] ?? 0);
}

/**
 * Makes a memory and a pids cgroup for one run, each where it can be had. The
 * memory limit's OOM kills are counted by the kernel (v1 `memory.oom_control`,
 * v2 `memory.events`: `oom_kill`), the pids cap's refusals too (`pids.events`:
 * `max`): the verdict reads those counters, never the program's output.
 */
export async function createRunCgroups(name: string, options: RunCgroupsOptions): Promise<RunCgroups> {
  const own = await ownCgroupPaths();
  const memory = await makeCgroup(name, candidateParents("memory", own), (version) =>
    version === 1 ? [["memory.limit_in_bytes", String(options.memoryBytes)]] : [["memory.max", String(options.memoryBytes)], ["memory.swap.max", "0"]],
  );
  // With swap accounting (v1 memsw), tmpfs pages pushed to swap would escape the limit: cap memory + swap alike where the file exists.
  if (memory?.version === 1) await writeFile(join(memory.path, "memory.memsw.limit_in_bytes"), String(options.memoryBytes)).catch(() => undefined);
  // A process sits in one v2 cgroup only: where memory got a v2 one, the pids cap goes into the same folder.
  const pidsCandidates = candidateParents("pids", own).filter((candidate) => candidate.version === 1 || memory?.version !== 2);
  let pids = await makeCgroup(name, pidsCandidates, () => [["pids.max", String(options.maxProcesses)]]);
  if (pids === undefined && memory?.version === 2) pids = await writeFile(join(memory.path, "pids.max"), String(options.maxProcesses)).then(() => memory, () => undefined);
  const made = [memory, pids].filter((cgroup) => cgroup !== undefined);
  return {
    paths: [...new Set(made.map((cgroup) => cgroup.path))],
    memory: memory && { oomKills: () => readCounter(join(memory.path, memory.version === 1 ? "memory.oom_control" : "memory.events"), "oom_kill") },
    pids: pids && { refusedForks: () => readCounter(join(pids.path, "pids.events"), "max") },
    remove: async () => {
      // A cgroup can be removed only once its last process has been reaped; a killed run takes a moment.
      for (const path of new Set(made.map((cgroup) => cgroup.path))) {
        for (let attempt = 0; attempt < 100; attempt += 1) {
          if (await rmdir(path).then(() => true, () => false)) break;
          await new Promise((resolve) => setTimeout(resolve, 10));
        }
      }
    },
  };
}
