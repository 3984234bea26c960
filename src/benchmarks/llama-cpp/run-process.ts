import { spawn } from "node:child_process";

export interface RunProcessOptions {
  /** Working folder of the program. Default: this process's. */
  cwd?: string;
  /** Kill the program (SIGKILL) after this many milliseconds. */
  timeoutMilliseconds: number;
}

/** How a program ended; `error` is set when it could not be started at all (not installed). */
export interface ProcessOutcome {
  status: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  error?: Error;
}

/**
 * Runs a program to its end without blocking the event loop and never
 * rejects: the caller decides what a failure means and how to name it.
 */
export function runProcess(command: string, args: readonly string[], options: RunProcessOptions): Promise<ProcessOutcome> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: options.cwd, stdio: ["ignore", "pipe", "pipe"] });
    const stdout: Buffer[] = [];
    const stderr: Buffer[] = [];
    child.stdout.on("data", (chunk: Buffer) => stdout.push(chunk));
    child.stderr.on("data", (chunk: Buffer) => stderr.push(chunk));
    const timer = setTimeout(() => child.kill("SIGKILL"), options.timeoutMilliseconds);
    let startError: Error | undefined;
    child.on("error", (error) => (startError = error));
    child.on("close", (status, signal) => {
      clearTimeout(timer);
      resolve({
        status,
        signal,
        stdout: Buffer.concat(stdout).toString("utf8"),
        stderr: Buffer.concat(stderr).toString("utf8"),
        ...(startError !== undefined && { error: startError }),
      });
    });
  });
}
