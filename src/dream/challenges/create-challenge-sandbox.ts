import { rm } from "node:fs/promises";
import { join } from "node:path";
import { runInSandbox } from "../sandbox/run-in-sandbox.js";
import type { SandboxOptions } from "../sandbox/sandbox-options.js";
import type { ChallengeSandbox } from "./challenge-sandbox.js";

/** Options of `createChallengeSandbox`: the sandbox's limits for every program of a challenge. */
export type ChallengeSandboxOptions = Pick<SandboxOptions, "timeoutMs" | "memoryMb" | "outputCapBytes" | "diskMb" | "maxFiles" | "maxProcesses" | "allowMissing" | "permissionFlags">;

/** The name `runInSandbox` gives a program passed as source. */
const PROGRAM_FILE = "program.js";

/**
 * The dream cycle's sandbox for challenges: each program runs through
 * `runInSandbox` with its challenge directory as the work directory. The
 * program file the sandbox writes there is removed after the run, so the
 * directory holds only what the program wrote (the fixtures a setup leaves are
 * snapshotted from it).
 */
export function createChallengeSandbox(options: ChallengeSandboxOptions = {}): ChallengeSandbox {
  return {
    async run(program) {
      try {
        return await runInSandbox({ ...options, source: program.source, workDirectory: program.directory });
      } finally {
        await rm(join(program.directory, PROGRAM_FILE), { force: true });
      }
    },
  };
}
