import { z } from "zod";

/**
 * Why a sandboxed run ended, decided only from what the supervisor observed,
 * never from what the program printed. `completed`: exit 0. `exit-code`: a
 * non-zero exit with no limit hit. `timeout`: the sandbox's own wall-clock
 * timer killed it. `memory`: the memory cgroup's OOM killer fired (its
 * `oom_kill` counter rose). `disk`: the run ended with its capped filesystem
 * full (statfs: no free block or no free inode), even if the program caught
 * ENOSPC and exited 0. `output-cap`: stdout + stderr passed the cap, so reading
 * stopped and the run was killed. `process-limit`: the pids cgroup refused a
 * fork (its `max` event counter rose). `signal`: ended by a signal the sandbox
 * did not send. `spawn-error`: the sandbox could not start the program.
 */
export const SandboxReasonSchema = z.enum(["completed", "exit-code", "timeout", "memory", "disk", "output-cap", "process-limit", "signal", "spawn-error"]);
export type SandboxReason = z.infer<typeof SandboxReasonSchema>;

/** Which isolation a run actually had; a fallback is recorded here, never silent. */
export const SandboxIsolationSchema = z.object({
  /** True when the run was inside fresh user, mount, pid, network and UTS namespaces. */
  namespaces: z.boolean(),
  /** `none`: a network namespace with no interface up; `host`: the machine's network is reachable. */
  network: z.enum(["none", "host"]),
  /**
   * `pivot-root`: the program's root is a fresh read-only tree (/usr and the system folders read-only, three
   * devices, /proc, /work) entered by pivot_root with the old root unmounted, so no path leads back to the host's;
   * `permission-flags`: Node's permission model only.
   */
  filesystem: z.enum(["pivot-root", "permission-flags"]),
  /** `tmpfs`: `/work` is a tmpfs with `size=` and `nr_inodes=` caps; `host`: the run writes to the host's disk, uncapped. */
  disk: z.enum(["tmpfs", "host"]),
  /**
   * `unprivileged`: the program's processes run as a host uid other than root (65534 when the host user is root),
   * so nothing it writes is owned by root and setuid bits give nothing; `host-root`: as the host's root.
   */
  user: z.enum(["unprivileged", "host-root"]),
  /**
   * `memory-cgroup`: a memory cgroup caps the run and its OOM counter decides `memory`; `rlimit-data`: only
   * RLIMIT_DATA and V8's heap flag, whose failures the supervisor cannot observe (no `memory` verdict).
   */
  memory: z.enum(["memory-cgroup", "rlimit-data"]),
  /**
   * `pids-cgroup`: a pids cgroup caps the run's processes and threads; `none`: no cgroup could be made, so only the
   * wall-clock kill bounds a fork bomb (RLIMIT_NPROC is no substitute: the kernel does not enforce it for root).
   */
  processes: z.enum(["pids-cgroup", "none"]),
  /** True when Node's `--experimental-permission` flags were passed (defence in depth, not the boundary). */
  permissionFlags: z.boolean(),
});
export type SandboxIsolation = z.infer<typeof SandboxIsolationSchema>;

/** What was copied from the run's `/work` back to the caller's work directory. */
export const SandboxCopyOutSchema = z.object({
  /** Regular files copied back. */
  files: z.number().int().nonnegative(),
  /** Their bytes. */
  bytes: z.number().int().nonnegative(),
  /** Entries left behind, each `path: why` (a symbolic link, a device, a file past the copy-out cap). */
  refused: z.array(z.string()),
});
export type SandboxCopyOut = z.infer<typeof SandboxCopyOutSchema>;

export const SandboxResultSchema = z.object({
  /** `ok`: exit 0 and no limit hit; `failed`: the program ended on its own with an error; `killed`: a limit stopped it. */
  status: z.enum(["ok", "failed", "killed"]),
  reason: SandboxReasonSchema,
  /** The program's exit code; null when it ended on a signal. */
  exitCode: z.number().int().nullable(),
  /** The signal that ended it, e.g. `SIGKILL`; null on a normal exit. */
  signal: z.string().nullable(),
  /**
   * The `code` of the last uncaught error Node printed on stderr (`ENOENT`, `ERR_ACCESS_DENIED`). The program's
   * own words, reported for reading only: no verdict depends on it.
   */
  errorCode: z.string().nullable(),
  stdout: z.string(),
  stderr: z.string(),
  /** Milliseconds from spawn to exit, sandbox set-up included. */
  wallMs: z.number().nonnegative(),
  isolation: SandboxIsolationSchema,
  /** What came back to the work directory; null when the caller gave none, or the run was killed before the copy. */
  copyOut: SandboxCopyOutSchema.nullable(),
  /** Fallbacks taken for this run, each saying what is missing and what it costs. */
  warnings: z.array(z.string()),
});
export type SandboxResult = z.infer<typeof SandboxResultSchema>;
