import type { SandboxReason, SandboxResult } from "./sandbox-result.js";

/** What the runner saw when the program ended. */
export interface SandboxExit {
  exitCode: number | null;
  signal: string | null;
  stderr: string;
  /** The sandbox's own kill, if it sent one. */
  killedFor: "timeout" | "output-cap" | undefined;
  /** Forks the pids cgroup refused. */
  refusedForks: number;
}

const MEMORY_MESSAGES = [/heap out of memory/i, /Allocation failed/i, /Array buffer allocation failed/i, /ERR_MEMORY_ALLOCATION_FAILED/, /Cannot allocate memory/i, /ENOMEM/, /std::bad_alloc/];
const ACCESS_CODES = new Set(["ERR_ACCESS_DENIED", "EACCES", "EPERM", "EROFS"]);
const NETWORK_CODES = new Set(["ENETUNREACH", "ECONNREFUSED", "EHOSTUNREACH", "EAI_AGAIN", "ENOTFOUND", "EADDRNOTAVAIL"]);

/** The `code` of the uncaught error Node printed (`code: 'ENOENT'`), the last one when there are several. */
export function uncaughtErrorCode(stderr: string): string | null {
  const codes = [...stderr.matchAll(/\bcode: '([A-Z0-9_]+)'/g)].map((match) => match[1] ?? "");
  return codes.at(-1) ?? null;
}

/** Status and reason of a finished run: the sandbox's own kills first, then the limits' fingerprints, then the exit itself. */
export function classifySandboxExit(exit: SandboxExit): Pick<SandboxResult, "status" | "reason" | "errorCode"> {
  const errorCode = uncaughtErrorCode(exit.stderr);
  const reason = ((): SandboxReason => {
    if (exit.killedFor === "output-cap") return "output-cap";
    // A capped fork bomb lingers until the wall clock kills it: the cap, not the clock, is what stopped it.
    if (exit.refusedForks > 0 || errorCode === "EAGAIN") return "process-limit";
    if (exit.killedFor === "timeout") return "timeout";
    if (exit.exitCode === 0) return "completed";
    if (MEMORY_MESSAGES.some((pattern) => pattern.test(exit.stderr))) return "memory";
    if (errorCode !== null && ACCESS_CODES.has(errorCode)) return "access-denied";
    if (errorCode !== null && NETWORK_CODES.has(errorCode)) return "network-denied";
    if (exit.signal !== null) return "signal";
    return "exit-code";
  })();
  const status = reason === "completed" ? "ok" : reason === "timeout" || reason === "output-cap" || reason === "memory" || exit.killedFor !== undefined ? "killed" : "failed";
  return { status, reason, errorCode };
}
