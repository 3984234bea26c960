import { z } from "zod";

/**
 * Why a sandboxed run ended. `completed`: exit 0. `exit-code`: a non-zero exit
 * with no more specific cause. `timeout`: the wall-clock kill. `memory`: the
 * heap flag or RLIMIT_DATA stopped an allocation. `output-cap`: stdout + stderr
 * passed the cap, so reading stopped and the run was killed. `process-limit`:
 * the pids cap refused a fork. `access-denied`: a file outside the sandbox was
 * refused (Node's permission model, a read-only or empty root). `network-denied`:
 * a connection failed because the sandbox has no network. `signal`: killed by
 * a signal the sandbox did not send. `spawn-error`: the wrapper could not start.
 */
export const SandboxReasonSchema = z.enum([
  "completed",
  "exit-code",
  "timeout",
  "memory",
  "output-cap",
  "process-limit",
  "access-denied",
  "network-denied",
  "signal",
  "spawn-error",
]);
export type SandboxReason = z.infer<typeof SandboxReasonSchema>;

/** Which isolation a run actually had; a fallback is recorded here, never silent. */
export const SandboxIsolationSchema = z.object({
  /** True when the run was inside fresh user + mount + pid + network namespaces (`unshare -rmnpf`). */
  namespaces: z.boolean(),
  /** `none`: a network namespace with no interface up; `host`: the machine's network is reachable. */
  network: z.enum(["none", "host"]),
  /** `private-root`: a fresh, read-only root holding only /usr and the system folders (read-only), three devices, /proc and the work directory; `permission-flags`: Node's permission model only. */
  filesystem: z.enum(["private-root", "permission-flags"]),
  /** `rlimit-data`: RLIMIT_DATA (bounds Buffers and ArrayBuffers too) plus V8's heap flag; `heap-flag-only`: only --max-old-space-size. */
  memory: z.enum(["rlimit-data", "heap-flag-only"]),
  /**
   * `pids-cgroup`: a pids cgroup caps the run's processes and threads; `none`: no cgroup could be made, so only the
   * wall-clock kill bounds a fork bomb (RLIMIT_NPROC is no substitute: the kernel does not enforce it for root).
   */
  processes: z.enum(["pids-cgroup", "none"]),
  /** True when Node's `--experimental-permission` flags were passed (defence in depth, not the boundary). */
  permissionFlags: z.boolean(),
});
export type SandboxIsolation = z.infer<typeof SandboxIsolationSchema>;

export const SandboxResultSchema = z.object({
  /** `ok`: exit 0; `failed`: the program ended on its own with an error; `killed`: the sandbox stopped it (time, memory, output). */
  status: z.enum(["ok", "failed", "killed"]),
  reason: SandboxReasonSchema,
  /** The program's exit code; null when it ended on a signal. */
  exitCode: z.number().int().nullable(),
  /** The signal that ended it, e.g. `SIGKILL`; null on a normal exit. */
  signal: z.string().nullable(),
  /** The `code` of the uncaught error Node printed (`ENOENT`, `ERR_ACCESS_DENIED`), when there was one. */
  errorCode: z.string().nullable(),
  stdout: z.string(),
  stderr: z.string(),
  /** Milliseconds from spawn to exit, sandbox set-up included. */
  wallMs: z.number().nonnegative(),
  isolation: SandboxIsolationSchema,
  /** Fallbacks taken for this run, each saying what is missing and what it costs. */
  warnings: z.array(z.string()),
});
export type SandboxResult = z.infer<typeof SandboxResultSchema>;
