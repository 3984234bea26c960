import { spawn } from "node:child_process";
import { writeFile, rm, mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ChallengeSandbox, SandboxRunResult } from "../../../src/dream/challenges/challenge-sandbox.js";

/**
 * A plain child-process stand-in for the sandbox (no isolation): for tests of
 * many trusted programs (the templates' own) where only speed matters. The
 * program file lives outside the working directory.
 */
export function childProcessSandbox(timeoutMs = 10_000): ChallengeSandbox {
  return {
    async run(program): Promise<SandboxRunResult> {
      const folder = await mkdtemp(join(tmpdir(), "selfplay-standin-"));
      const file = join(folder, "program.js");
      await writeFile(file, program.source);
      const started = performance.now();
      try {
        return await new Promise<SandboxRunResult>((resolve) => {
          const child = spawn(process.execPath, [file], { cwd: program.directory, stdio: ["ignore", "pipe", "pipe"], timeout: timeoutMs });
          let stdout = "";
          let stderr = "";
          child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
          child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
          child.on("close", (exitCode, signal) => {
            const status = exitCode === 0 ? "ok" : signal !== null ? "killed" : "failed";
            resolve({ status, reason: signal, exitCode, stdout, stderr, wallMs: performance.now() - started, isolation: "none" });
          });
        });
      } finally {
        await rm(folder, { recursive: true, force: true });
      }
    },
  };
}
