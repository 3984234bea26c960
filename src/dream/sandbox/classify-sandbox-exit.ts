import type { SandboxReason, SandboxResult } from "./sandbox-result.js";

/** What the supervisor observed when the program ended: nothing here comes from the program's output. */
export interface SandboxExit {
  exitCode: number | null;
  signal: string | null;
  /** The sandbox's own kill, if it sent one. */
  killedFor: "timeout" | "output-cap" | undefined;
  /** Forks the pids cgroup refused (its `max` event counter). */
  refusedForks: number;
  /** Processes the memory cgroup's OOM killer killed (its `oom_kill` counter). */
  oomKills: number;
  /** The capped filesystem was full when the program ended: statfs showed no free block or no free inode. */
  diskFull: boolean;
}

/** The `code` of the uncaught error Node printed (`code: 'ENOENT'`), the last one when there are several. Reported, never judged on. */
export function uncaughtErrorCode(stderr: string): string | null {
  const codes = [...stderr.matchAll(/\bcode: '([A-Z0-9_]+)'/g)].map((match) => match[1] ?? "");
  return codes.at(-1) ?? null;
}

/**
 * Status and reason of a finished run: the sandbox's own output kill, then the
 * kernel's counters (memory, processes, disk), then its own timer, then the
 * exit itself. A limit the kernel recorded outranks the timer: a capped fork
 * bomb or a writer spinning on a full disk lingers until the clock kills it,
 * but the cap is what stopped it.
 */
export function classifySandboxExit(exit: SandboxExit): Pick<SandboxResult, "status" | "reason"> {
  const reason = ((): SandboxReason => {
    if (exit.killedFor === "output-cap") return "output-cap";
    if (exit.oomKills > 0) return "memory";
    if (exit.refusedForks > 0) return "process-limit";
    if (exit.diskFull) return "disk";
    if (exit.killedFor === "timeout") return "timeout";
    if (exit.exitCode === 0) return "completed";
    if (exit.signal !== null) return "signal";
    return "exit-code";
  })();
  const limits = new Set<SandboxReason>(["timeout", "output-cap", "memory", "disk", "process-limit"]);
  const status = reason === "completed" ? "ok" : limits.has(reason) || exit.killedFor !== undefined ? "killed" : "failed";
  return { status, reason };
}
