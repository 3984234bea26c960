import { spawn } from "node:child_process";
import { copyFile, mkdir, mkdtemp, realpath, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { basename, dirname, isAbsolute, join, normalize, resolve } from "node:path";
import { parseInput } from "../../core/parse-input.js";
import { SandboxOptionsError } from "../errors/sandbox-options-error.js";
import { SandboxUnavailableError } from "../errors/sandbox-unavailable-error.js";
import { buildSandboxRoot } from "./build-sandbox-root.js";
import { classifySandboxExit } from "./classify-sandbox-exit.js";
import { createPidsCgroup } from "./pids-cgroup.js";
import { probeSandboxNamespaces, type NamespaceProbe } from "./probe-sandbox-namespaces.js";
import { SandboxOptionsSchema, type ResolvedSandboxOptions, type SandboxOptions } from "./sandbox-options.js";
import type { SandboxIsolation, SandboxResult } from "./sandbox-result.js";
import { SANDBOX_WRAPPER_SCRIPT } from "./sandbox-wrapper-script.js";

/** Test and benchmark seams; production callers leave them alone. */
export interface SandboxInternals {
  /** Monotonic clock in milliseconds, for wallMs. Default `performance.now`. */
  now?: () => number;
  /** Says whether namespaces work here. Default probeSandboxNamespaces (cached); tests force the fallback with it. */
  probe?: () => Promise<NamespaceProbe>;
}

/** Where the program sits inside the sandbox's view (the work directory is bound here). */
const SANDBOX_WORK = "/work";

/**
 * Runs one JavaScript program in a child process (never in-process) under the
 * sandbox: a wall-clock kill of the whole process group, RLIMIT_DATA plus V8's
 * heap flag, an output cap, a pids cgroup, and — where `unshare` works — fresh
 * user, mount, pid and network namespaces whose only writable place is the work
 * directory. Where a mechanism is missing the run goes on without it and says so
 * in `isolation` and `warnings` (or refuses, with `isolation: "namespaces"`).
 */
export async function runInSandbox(options: SandboxOptions, internals: SandboxInternals = {}): Promise<SandboxResult> {
  const resolved = parseInput(SandboxOptionsSchema, options);
  const now = internals.now ?? (() => performance.now());
  const probe = await (internals.probe ?? probeSandboxNamespaces)();
  if (!probe.available && resolved.isolation === "namespaces") throw new SandboxUnavailableError(probe.detail);

  const base = await mkdtemp(join(tmpdir(), "selfplay-sandbox-"));
  const work = resolved.workDirectory === undefined ? join(base, "work") : resolve(resolved.workDirectory);
  try {
    await mkdir(join(base, "root"));
    const binds = probe.available ? await buildSandboxRoot(join(base, "root"), dirname(dirname(await realpath(process.execPath)))) : [];
    await mkdir(work, { recursive: true });
    const program = await placeProgram(resolved, work);
    for (const [relativePath, contents] of Object.entries(resolved.files)) {
      const target = normalize(join(work, relativePath));
      if (isAbsolute(relativePath) || !target.startsWith(`${work}/`)) throw new SandboxOptionsError(`files.${relativePath}`, "a path relative to the work directory, without ..", relativePath);
      await mkdir(dirname(target), { recursive: true });
      await writeFile(target, contents);
    }
    const cgroup = await createPidsCgroup(basename(base), resolved.maxProcesses);
    try {
      return await spawnWrapped(resolved, { base, work, program, namespaces: probe.available, probeDetail: probe.detail, binds, cgroupPath: cgroup?.path, now, refusedForks: cgroup?.refusedForks });
    } finally {
      await cgroup?.remove();
    }
  } finally {
    await rm(base, { recursive: true, force: true });
  }
}

/** Copies `file` (or writes `source`) into the work directory; returns its name there. */
async function placeProgram(options: ResolvedSandboxOptions, work: string): Promise<string> {
  if (options.source !== undefined) {
    await writeFile(join(work, "program.js"), options.source);
    return "program.js";
  }
  const file = options.file ?? "";
  const found = await stat(file).catch(() => undefined);
  if (!found?.isFile()) throw new SandboxOptionsError("file", "an existing JavaScript file", file);
  const name = basename(file);
  if (resolve(file) !== join(work, name)) await copyFile(file, join(work, name));
  return name;
}

interface WrappedRun {
  base: string;
  work: string;
  program: string;
  namespaces: boolean;
  probeDetail: string;
  /** Host folders bound read-only at the same path inside the view, besides /usr. */
  binds: string[];
  cgroupPath: string | undefined;
  now: () => number;
  refusedForks: (() => Promise<number>) | undefined;
}

async function spawnWrapped(options: ResolvedSandboxOptions, run: WrappedRun): Promise<SandboxResult> {
  const nodePath = await realpath(process.execPath);
  // Inside the namespaces the work directory is /work; without them the program sees the real path.
  const workSeen = run.namespaces ? SANDBOX_WORK : run.work;
  const heapMb = Math.floor((options.memoryMb * 3) / 4);
  const nodeArguments = [`--max-old-space-size=${heapMb}`];
  if (options.permissionFlags) {
    nodeArguments.push("--experimental-permission", `--allow-fs-read=${workSeen}`, `--allow-fs-write=${workSeen}`, "--no-warnings");
    if (options.allowChildProcesses) nodeArguments.push("--allow-child-process");
  }
  nodeArguments.push(join(workSeen, run.program), ...options.args);

  const isolation: SandboxIsolation = {
    namespaces: run.namespaces,
    network: run.namespaces ? "none" : "host",
    filesystem: run.namespaces ? "private-root" : "permission-flags",
    memory: "rlimit-data",
    processes: run.cgroupPath !== undefined ? "pids-cgroup" : "none",
    permissionFlags: options.permissionFlags,
  };
  const warnings: string[] = [];
  if (!run.namespaces) warnings.push(`no namespaces (${run.probeDetail}): the program can reach the network, sees the host's files except where Node's permission flags refuse them, and a process it starts in a new session outlives the kill`);
  if (run.cgroupPath === undefined) warnings.push("no pids cgroup could be made: the process count is bounded only by the wall-clock kill");
  if (!options.permissionFlags && !run.namespaces) warnings.push("neither namespaces nor permission flags: the program's file access is not restricted");

  const scriptPath = join(run.base, "wrapper.sh");
  await writeFile(scriptPath, SANDBOX_WRAPPER_SCRIPT);
  const wrapperArguments = [scriptPath, "host", run.cgroupPath ?? "-", run.namespaces ? "1" : "0", join(run.base, "root"), run.work, String(options.memoryMb * 1024), run.binds.join(":"), nodePath, ...nodeArguments];
  const environment = { PATH: "/usr/local/bin:/usr/bin:/bin", HOME: workSeen, TMPDIR: workSeen, ...options.env };

  const started = run.now();
  const child = spawn("sh", wrapperArguments, { cwd: run.work, env: environment, detached: true, stdio: ["ignore", "pipe", "pipe"] });
  const chunks = { stdout: [] as Buffer[], stderr: [] as Buffer[] };
  let kept = 0;
  let killedFor: "timeout" | "output-cap" | undefined;
  const killGroup = (why: "timeout" | "output-cap") => {
    killedFor ??= why;
    try {
      // Negative pid: the whole process group (wrapper, unshare, the program and what it started).
      process.kill(-(child.pid ?? 0), "SIGKILL");
    } catch {
      // Already gone.
    }
  };
  const collect = (stream: "stdout" | "stderr") => (chunk: Buffer) => {
    if (killedFor === "output-cap") return;
    const room = options.outputCapBytes - kept;
    chunks[stream].push(chunk.subarray(0, Math.max(0, room)));
    kept += Math.min(chunk.length, Math.max(0, room));
    if (chunk.length > room) killGroup("output-cap");
  };
  child.stdout.on("data", collect("stdout"));
  child.stderr.on("data", collect("stderr"));
  const timer = setTimeout(() => killGroup("timeout"), options.timeoutMs);

  const ended = await new Promise<{ exitCode: number | null; signal: string | null; spawnError?: Error }>((resolvePromise) => {
    child.on("error", (error) => resolvePromise({ exitCode: null, signal: null, spawnError: error }));
    child.on("close", (exitCode, signal) => resolvePromise({ exitCode, signal }));
  });
  clearTimeout(timer);
  const wallMs = run.now() - started;
  // Whatever the program left running in its group goes with it (the pid namespace already did this where there is one).
  try {
    process.kill(-(child.pid ?? 0), "SIGKILL");
  } catch {
    // The group is empty.
  }
  const stdout = Buffer.concat(chunks.stdout).toString("utf8");
  const stderr = Buffer.concat(chunks.stderr).toString("utf8");
  if (ended.spawnError !== undefined) {
    return { status: "failed", reason: "spawn-error", exitCode: null, signal: null, errorCode: null, stdout, stderr: `${stderr}${ended.spawnError.message}`, wallMs, isolation, warnings };
  }
  const refusedForks = (await run.refusedForks?.()) ?? 0;
  const classified = classifySandboxExit({ exitCode: ended.exitCode, signal: ended.signal, stderr, killedFor, refusedForks });
  return { ...classified, exitCode: ended.exitCode, signal: ended.signal, stdout, stderr, wallMs, isolation, warnings };
}
