import { spawn } from "node:child_process";
import { PythonUnavailableError } from "../errors/index.js";

/** The Python that fetches models: `python3` on the environment's PATH. */
export const PYTHON = "python3";

/** How a `python3 -m <module>` run ended. */
export interface PythonModuleOutcome {
  exitCode: number;
  /** What it printed, stdout and stderr together in the order they arrived. */
  output: string;
}

/**
 * Runs `python3 -m <module> <args>` in `environment` (its PATH finds python3) to its end. A python3 that is not
 * installed, or lacks the module, is a PythonUnavailableError; any other failure is the caller's to name.
 */
export function runPythonModule(module: string, args: readonly string[], environment: Readonly<Record<string, string | undefined>>): Promise<PythonModuleOutcome> {
  const command = `${PYTHON} -m ${module}`;
  return new Promise((resolve, reject) => {
    const child = spawn(PYTHON, ["-m", module, ...args], { env: { ...environment }, stdio: ["ignore", "pipe", "pipe"] });
    const chunks: Buffer[] = [];
    child.stdout.on("data", (chunk: Buffer) => chunks.push(chunk));
    child.stderr.on("data", (chunk: Buffer) => chunks.push(chunk));
    child.on("error", (error: NodeJS.ErrnoException) => {
      reject(error.code === "ENOENT" ? new PythonUnavailableError(command, `no ${PYTHON} on the PATH`) : error);
    });
    child.on("close", (exitCode) => {
      const output = Buffer.concat(chunks).toString("utf8");
      if (new RegExp(`No module named ${module}\\b`).test(output)) reject(new PythonUnavailableError(command, `this ${PYTHON} has no ${module} module`));
      else resolve({ exitCode: exitCode ?? 1, output }); // a signal (no exit code) is a failure too
    });
  });
}
