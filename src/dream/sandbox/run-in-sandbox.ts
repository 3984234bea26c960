import { spawn } from "node:child_process";
import { chmod, copyFile, mkdir, mkdtemp, realpath, rm, stat, statfs, writeFile } from "node:fs/promises";
import { constants, tmpdir } from "node:os";
import { basename, dirname, isAbsolute, join, normalize, resolve } from "node:path";
import type { Readable, Writable } from "node:stream";
import { parseInput } from "../../core/parse-input.js";
import { SandboxOptionsError } from "../errors/sandbox-options-error.js";
import { SandboxUnavailableError } from "../errors/sandbox-unavailable-error.js";
import { classifySandboxExit, uncaughtErrorCode } from "./classify-sandbox-exit.js";
import { copyResultsOut } from "./copy-results-out.js";
import { probeSandboxNamespaces, type NamespaceProbe } from "./probe-sandbox-namespaces.js";
import { createRunCgroups, type RunCgroups } from "./run-cgroups.js";
import { SandboxOptionsSchema, type ResolvedSandboxOptions, type SandboxOptions, type SandboxProtection } from "./sandbox-options.js";
import type { SandboxCopyOut, SandboxIsolation, SandboxResult } from "./sandbox-result.js";
import { sandboxFstab } from "./sandbox-fstab.js";
import { sharedSandboxRoot, type SharedSandboxRoot } from "./shared-sandbox-root.js";
import { stageWorkDirectory } from "./stage-work-directory.js";

/** Test and benchmark seams; production callers leave them alone. */
export interface SandboxInternals {
  /** Monotonic clock in milliseconds, for wallMs. Default `performance.now`. */
  now?: () => number;
  /** Says whether namespaces work here. Default probeSandboxNamespaces (cached); tests force the fallback with it. */
  probe?: () => Promise<NamespaceProbe>;
  /** Makes the run's cgroups. Default createRunCgroups; tests take a controller away with it. */
  cgroups?: typeof createRunCgroups;
}

/** Where the program sits inside the sandbox's view (the tmpfs is mounted here). */
const SANDBOX_WORK = "/work";
const MIB = 1024 * 1024;

/**
 * Runs one JavaScript program in a child process (never in-process) under the
 * sandbox: fresh user, mount, pid, network and UTS namespaces as an
 * unprivileged uid, a pivot_root'ed read-only view whose only writable place
 * is a tmpfs capped in bytes and inodes, the program in its own session, a
 * memory and a pids cgroup, a wall-clock kill and an output cap. The verdict
 * comes from what the supervisor observes (its timer, the cgroups' counters,
 * statfs of the tmpfs), never from the program's output. A protection this
 * machine cannot give refuses the run unless the caller listed it in
 * `allowMissing`; what the run had is recorded in `isolation`.
 */
export async function runInSandbox(options: SandboxOptions, internals: SandboxInternals = {}): Promise<SandboxResult> {
  const resolved = parseInput(SandboxOptionsSchema, options);
  const now = internals.now ?? (() => performance.now());
  const probe = await (internals.probe ?? probeSandboxNamespaces)();
  const namespaces = probe.available;
  const base = await mkdtemp(join(tmpdir(), "selfplay-sandbox-"));
  let cgroups: RunCgroups | undefined;
  try {
    // The unprivileged uid reads the staged inputs and the fstab under base.
    await chmod(base, 0o755);
    const missing = new Map<SandboxProtection, string>();
    if (!namespaces) missing.set("namespaces", probe.detail);
    cgroups = await (internals.cgroups ?? createRunCgroups)(basename(base), { maxProcesses: resolved.maxProcesses, memoryBytes: (resolved.memoryMb + resolved.diskMb) * MIB });
    if (cgroups.memory === undefined) missing.set("memory-cgroup", "no memory cgroup could be made (no controller, or no permission to write it)");
    if (cgroups.pids === undefined) missing.set("pids-cgroup", "no pids cgroup could be made (no controller, or no permission to write it)");
    const refused = [...missing].filter(([protection]) => !resolved.allowMissing.includes(protection));
    if (refused.length > 0) throw new SandboxUnavailableError(refused.map(([protection, detail]) => ({ protection, detail })));

    const inputs = join(base, "inputs");
    await mkdir(inputs, { mode: 0o755 });
    const shared = await sharedSandboxRoot();
    // The caller's folder (or a fresh one) receives the program and files; in namespaces it is then staged with modes the unprivileged uid can read, whatever the umask.
    const work = resolved.workDirectory === undefined ? join(base, "work") : resolve(resolved.workDirectory);
    await mkdir(work, { recursive: true });
    const program = await placeProgram(resolved, work);
    for (const [relativePath, contents] of Object.entries(resolved.files)) {
      const target = normalize(join(work, relativePath));
      if (isAbsolute(relativePath) || !target.startsWith(`${work}/`)) throw new SandboxOptionsError(`files.${relativePath}`, "a path relative to the work directory, without ..", relativePath);
      await mkdir(dirname(target), { recursive: true });
      await writeFile(target, contents);
    }
    if (namespaces) await stageWorkDirectory(work, inputs, { maxBytes: resolved.diskMb * MIB, maxFiles: resolved.maxFiles });
    return await spawnWrapped(resolved, { base, shared, work, inputs, program, namespaces, dropsUid: probe.dropsUid, cgroups, now, missing });
  } finally {
    await cgroups?.remove();
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
  /** The caller's work directory, or a fresh folder under base when the caller gave none. */
  work: string;
  /** The staged inputs the supervisor copies into the tmpfs. */
  inputs: string;
  program: string;
  namespaces: boolean;
  dropsUid: boolean;
  /** The root layout and wrapper all runs share. */
  shared: SharedSandboxRoot;
  cgroups: RunCgroups;
  now: () => number;
  /** Protections this run goes without (allowed by the caller), with why. */
  missing: Map<SandboxProtection, string>;
}

/** What the host learnt while the namespace still lived: statfs of the tmpfs and the copy-out. */
interface Ended {
  status: number;
  diskFull: boolean;
  copyOut: SandboxCopyOut | null;
}

function describeIsolation(options: ResolvedSandboxOptions, run: WrappedRun): { isolation: SandboxIsolation; warnings: string[] } {
  const isolation: SandboxIsolation = {
    namespaces: run.namespaces,
    network: run.namespaces ? "none" : "host",
    filesystem: run.namespaces ? "pivot-root" : "permission-flags",
    disk: run.namespaces ? "tmpfs" : "host",
    user: run.namespaces && run.dropsUid ? "unprivileged" : process.getuid?.() === 0 ? "host-root" : "unprivileged",
    memory: run.cgroups.memory !== undefined ? "memory-cgroup" : "rlimit-data",
    processes: run.cgroups.pids !== undefined ? "pids-cgroup" : "none",
    permissionFlags: options.permissionFlags,
  };
  const warnings: string[] = [];
  const namespacesDetail = run.missing.get("namespaces");
  if (namespacesDetail !== undefined) warnings.push(`no namespaces (${namespacesDetail}): the program can reach the network, writes the host's disk uncapped as the host's user, sees the host's files except where Node's permission flags refuse them, and a process it starts in a new session outlives the kill`);
  if (run.missing.has("memory-cgroup")) warnings.push("no memory cgroup: memory is bounded by RLIMIT_DATA and V8's heap flag only, whose failures the sandbox cannot observe, so no run is judged `memory`");
  if (run.missing.has("pids-cgroup")) warnings.push("no pids cgroup: the process count is bounded only by the wall-clock kill");
  if (!options.permissionFlags && !run.namespaces) warnings.push("neither namespaces nor permission flags: the program's file access is not restricted");
  return { isolation, warnings };
}

async function spawnWrapped(options: ResolvedSandboxOptions, run: WrappedRun): Promise<SandboxResult> {
  const nodePath = await realpath(process.execPath);
  // Inside the namespaces the work directory is /work; without them the program sees the real path.
  const workSeen = run.namespaces ? SANDBOX_WORK : run.work;
  // With a memory cgroup, V8's own heap limit sits above the cgroup's, so a heap bomb meets the kernel's OOM killer (an observed `memory`), not V8's abort.
  const heapMb = run.cgroups.memory !== undefined ? options.memoryMb + options.diskMb : Math.floor((options.memoryMb * 3) / 4);
  const nodeArguments = [`--max-old-space-size=${heapMb}`];
  if (options.permissionFlags) {
    nodeArguments.push("--experimental-permission", `--allow-fs-read=${workSeen}`, `--allow-fs-write=${workSeen}`, "--no-warnings");
    if (options.allowChildProcesses) nodeArguments.push("--allow-child-process");
  }
  nodeArguments.push(join(workSeen, run.program), ...options.args);
  const { isolation, warnings } = describeIsolation(options, run);

  const fstabPath = join(run.base, "fstab");
  await writeFile(fstabPath, sandboxFstab({ root: run.shared.root, binds: run.shared.binds, diskBytes: options.diskMb * MIB, maxFiles: options.maxFiles }), { mode: 0o644 });
  // RLIMIT_DATA only where no memory cgroup decides: under the cgroup it would turn a Buffer bomb into a catchable RangeError the sandbox cannot see.
  const dataKb = run.cgroups.memory === undefined ? String(options.memoryMb * 1024) : "-";
  const wrapperArguments = [run.shared.script, "host", run.cgroups.paths.join(":") || "-", run.namespaces ? "namespaces" : "plain", run.dropsUid ? "1" : "0", run.shared.root, run.namespaces ? run.inputs : run.work, fstabPath, dataKb, nodePath, ...nodeArguments];
  // Nothing of the host's environment, and no host path: the wrapper starts in /, the supervisor moves to /work.
  const environment = { PATH: "/usr/local/bin:/usr/bin:/bin", HOME: workSeen, TMPDIR: workSeen, ...options.env };

  const started = run.now();
  const child = spawn("sh", wrapperArguments, { cwd: run.namespaces ? "/" : run.work, env: environment, detached: true, stdio: ["pipe", "pipe", "pipe", "pipe"] });
  const chunks = { stdout: [] as Buffer[], stderr: [] as Buffer[] };
  let kept = 0;
  let killedFor: "timeout" | "output-cap" | undefined;
  let endedAt: number | undefined;
  const killGroup = (why?: "timeout" | "output-cap") => {
    if (why !== undefined) killedFor ??= why;
    try {
      // Negative pid: the wrapper's process group — unshare and the supervisor, the pid namespace's init, whose death takes every process inside with it.
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

  const ended = run.namespaces ? awaitEnded(child.stdio[3] as Readable, child.stdin, () => {
    endedAt = run.now();
    return afterProgram(child.pid ?? 0, options, run, () => killedFor !== undefined);
  }) : Promise.resolve(undefined);
  const closed = await new Promise<{ exitCode: number | null; signal: string | null; spawnError?: Error }>((resolvePromise) => {
    child.on("error", (error) => resolvePromise({ exitCode: null, signal: null, spawnError: error }));
    child.on("close", (exitCode, signal) => resolvePromise({ exitCode, signal }));
  });
  clearTimeout(timer);
  const wallMs = (endedAt ?? run.now()) - started;
  // Whatever is left in the group goes with it (in plain mode, what the program started).
  killGroup();
  const supervised = await ended;
  const stdout = Buffer.concat(chunks.stdout).toString("utf8");
  const stderr = Buffer.concat(chunks.stderr).toString("utf8");
  if (closed.spawnError !== undefined) {
    return { status: "failed", reason: "spawn-error", exitCode: null, signal: null, errorCode: null, stdout, stderr: `${stderr}${closed.spawnError.message}`, wallMs, isolation, copyOut: null, warnings };
  }
  const oomKills = (await run.cgroups.memory?.oomKills()) ?? 0;
  const refusedForks = (await run.cgroups.pids?.refusedForks()) ?? 0;
  // In namespaces the program's status is the supervisor's report; no report and no kill of ours means the sandbox itself failed.
  if (run.namespaces && supervised === undefined && killedFor === undefined && oomKills === 0 && refusedForks === 0) {
    return { status: "failed", reason: "spawn-error", exitCode: closed.exitCode, signal: closed.signal, errorCode: null, stdout, stderr, wallMs, isolation, copyOut: null, warnings };
  }
  const { exitCode, signal } = supervised === undefined ? closed : statusOf(supervised.status);
  const classified = classifySandboxExit({ exitCode, signal, killedFor, refusedForks, oomKills, diskFull: supervised?.diskFull ?? false });
  return { ...classified, exitCode, signal, errorCode: uncaughtErrorCode(stderr), stdout, stderr, wallMs, isolation, copyOut: supervised?.copyOut ?? null, warnings };
}

/** `wait`'s status as exit code and signal: above 128 is 128 + the signal's number, as shells report it. */
function statusOf(status: number): { exitCode: number | null; signal: string | null } {
  if (status <= 128) return { exitCode: status, signal: null };
  const name = Object.entries(constants.signals).find(([, number]) => number === status - 128)?.[0];
  return { exitCode: null, signal: name ?? `signal ${status - 128}` };
}

/**
 * Waits for the supervisor's `ended <status>` line on fd 3, lets `inspect` read the namespace while it still
 * lives, then closes the supervisor's stdin so it exits. Undefined when the supervisor never reported (killed).
 */
function awaitEnded(channel: Readable, stdin: Writable, inspect: () => Promise<Omit<Ended, "status">>): Promise<Ended | undefined> {
  return new Promise((resolvePromise) => {
    let text = "";
    let settled = false;
    channel.on("data", (chunk: Buffer) => {
      text += chunk.toString("utf8");
      const match = /^ended (\d+)\n/.exec(text);
      if (match === null || settled) return;
      settled = true;
      void inspect()
        .then((seen) => resolvePromise({ status: Number(match[1]), ...seen }), () => resolvePromise({ status: Number(match[1]), diskFull: false, copyOut: null }))
        .finally(() => stdin.end());
    });
    channel.on("close", () => {
      if (!settled) resolvePromise(undefined);
    });
    stdin.on("error", () => undefined);
  });
}

/** statfs of the tmpfs and the copy-out, through the mount namespace of the wrapper's process (unshare's, which pivot_root moved too). */
async function afterProgram(pid: number, options: ResolvedSandboxOptions, run: WrappedRun, killed: () => boolean): Promise<Omit<Ended, "status">> {
  const tmpfs = `/proc/${pid}/root${SANDBOX_WORK}`;
  const usage = await statfs(tmpfs);
  const diskFull = usage.bavail === 0 || usage.ffree === 0;
  if (killed() || options.workDirectory === undefined) return { diskFull, copyOut: null };
  return { diskFull, copyOut: await copyResultsOut(tmpfs, run.work, options.diskMb * MIB) };
}
