import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { FixtureSnapshotTooLargeError } from "../errors/fixture-snapshot-too-large-error.js";
import { classifyValidatorRun, type ValidatorRunVerdict } from "../gates/classify-validator-run.js";
import type { Challenge } from "./challenge.js";
import type { ChallengeSandbox, SandboxRunResult } from "./challenge-sandbox.js";
import { ChallengeWorkspace, type ChallengeWorkspaceOptions } from "./challenge-workspace.js";
import { readOutputFile } from "./read-output-file.js";
import { takeFixtureSnapshot, writeFixtureSnapshot, type FixtureSnapshot } from "./fixture-snapshot.js";

/** One attempt's outcome. */
export interface ChallengeAttemptResult {
  /** True when the validator exited 0 on the solution's output. */
  passed: boolean;
  /** The program the attempt stopped at: `setup` when the challenge itself is broken. */
  stoppedAt: "setup" | "solution" | "validator";
  setup: SandboxRunResult;
  /** Null when the setup failed. */
  solution: SandboxRunResult | null;
  /** Null when the setup failed. */
  validator: SandboxRunResult | null;
  /** The crash detector's reading of the validator run; null when it did not run. */
  verdict: ValidatorRunVerdict | null;
  /** The solution's output file, as the validator received it (null: not written). */
  output: string | null;
}

/**
 * Runs one attempt at a challenge, each program in the sandbox: the setup in a
 * fresh directory, the solution in that directory (it reads the fixtures and
 * writes the output file), then the validator in a second fresh directory
 * holding the setup's fixtures as the setup wrote them and the solution's
 * output file — so a solution cannot rewrite the fixtures the validator reads.
 * No program starts another.
 */
export async function runChallengeAttempt(
  challenge: Challenge,
  solutionSource: string,
  sandbox: ChallengeSandbox,
  options: ChallengeWorkspaceOptions = {},
): Promise<ChallengeAttemptResult> {
  const workspace = new ChallengeWorkspace(options);
  try {
    const prepared = await prepareFixtures(challenge, sandbox, workspace);
    if (prepared.fixtures === null) {
      return { passed: false, stoppedAt: "setup", setup: prepared.setup, solution: null, validator: null, verdict: null, output: null };
    }
    const solution = await sandbox.run({ source: solutionSource, directory: prepared.directory, role: "solution" });
    const output = await readOutputFile(prepared.directory, challenge.outputFile);
    const judged = await runValidator(challenge, prepared.fixtures, output, sandbox, workspace);
    return { passed: judged.verdict.kind === "passed", stoppedAt: "validator", setup: prepared.setup, solution, validator: judged.run, verdict: judged.verdict, output };
  } finally {
    await workspace.dispose();
  }
}

/** Runs the setup in a fresh directory; `fixtures` is null when it failed or left more than a snapshot may hold (reason `fixture-snapshot-too-large`). */
export async function prepareFixtures(
  challenge: Pick<Challenge, "setup">,
  sandbox: ChallengeSandbox,
  workspace: ChallengeWorkspace,
): Promise<{ setup: SandboxRunResult; directory: string; fixtures: FixtureSnapshot | null }> {
  const directory = await workspace.fresh("setup");
  const setup = await sandbox.run({ source: challenge.setup, directory, role: "setup" });
  if (setup.exitCode !== 0) return { setup, directory, fixtures: null };
  try {
    return { setup, directory, fixtures: await takeFixtureSnapshot(directory) };
  } catch (error) {
    // Too many fixtures is the setup's failure, named in its result: the attempt stops at the setup as for any broken setup.
    if (!(error instanceof FixtureSnapshotTooLargeError)) throw error;
    return { setup: { ...setup, status: "failed", reason: "fixture-snapshot-too-large", stderr: `${setup.stderr}${error.message}\n` }, directory, fixtures: null };
  }
}

/** Runs the validator in a fresh directory holding the fixtures and, unless null, the output file. */
export async function runValidator(
  challenge: Pick<Challenge, "validator" | "outputFile">,
  fixtures: FixtureSnapshot,
  output: string | null,
  sandbox: ChallengeSandbox,
  workspace: ChallengeWorkspace,
): Promise<{ run: SandboxRunResult; verdict: ValidatorRunVerdict }> {
  const directory = await workspace.fresh("validator");
  await writeFixtureSnapshot(directory, fixtures);
  if (output !== null) await writeFile(join(directory, challenge.outputFile), output);
  const run = await sandbox.run({ source: challenge.validator, directory, role: "validator" });
  return { run, verdict: classifyValidatorRun(run, { validatorSource: challenge.validator, outputFile: challenge.outputFile }) };
}
