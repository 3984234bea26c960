import type { Challenge } from "../challenges/challenge.js";
import type { ChallengeSandbox } from "../challenges/challenge-sandbox.js";
import { ChallengeWorkspace, type ChallengeWorkspaceOptions } from "../challenges/challenge-workspace.js";
import { writeFixtureSnapshot } from "../challenges/fixture-snapshot.js";
import { prepareFixtures, runValidator } from "../challenges/run-challenge-attempt.js";
import { classifyValidatorRun, type ValidatorRunVerdict } from "./classify-validator-run.js";
import { instrumentValidator, SELF_TEST_EXIT_CODE, SELF_TEST_SENTINEL } from "./instrument-validator.js";
import type { ValidatorRejection } from "./validator-rejection.js";

/** The self-test gate's outcome. */
export type ValidatorSelfTestResult =
  | { status: "passed"; variable: string; output: string }
  | { status: "rejected"; rejection: ValidatorRejection; variables: string[]; verdict: ValidatorRunVerdict }
  | { status: "skipped"; reason: string };

/**
 * The validator self-test gate. Runs the setup, then the instrumented
 * validator (the probe) on its fixtures to capture its expected answer, writes
 * that answer as the solution's output and runs the original validator on it:
 * a correct validator passes its own expected output, a self-contradicting one
 * (say, one that formats the expected rate with a `%` and parses the output
 * back as a number) fails and is rejected before a solver wastes its attempts.
 * Each captured value is tried in the few encodings a validator may read it in
 * (the text itself; JSON, compact or indented; an array as lines): false
 * negatives are preferred over false positives, so a validator is rejected only
 * when every one fails. Skipped, not blocked, when the probe finds nothing.
 */
export async function runValidatorSelfTest(
  challenge: Pick<Challenge, "setup" | "validator" | "outputFile">,
  sandbox: ChallengeSandbox,
  options: ChallengeWorkspaceOptions = {},
): Promise<ValidatorSelfTestResult> {
  const instrumented = instrumentValidator(challenge.validator, challenge.outputFile);
  if (!instrumented.instrumented) return { status: "skipped", reason: instrumented.reason };
  const workspace = new ChallengeWorkspace(options);
  try {
    const prepared = await prepareFixtures(challenge, sandbox, workspace);
    if (prepared.fixtures === null) return { status: "skipped", reason: `the setup failed (exit ${prepared.setup.exitCode}): the challenge is broken before its validator` };
    const probeDirectory = await workspace.fresh("probe");
    await writeFixtureSnapshot(probeDirectory, prepared.fixtures);
    const probe = await sandbox.run({ source: instrumented.probe, directory: probeDirectory, role: "probe" });
    const dump = new RegExp(`${escape(SELF_TEST_SENTINEL)}([\\s\\S]*?)${escape(SELF_TEST_SENTINEL)}`).exec(probe.stdout);
    if (probe.exitCode !== SELF_TEST_EXIT_CODE || dump === null) {
      const crash = classifyValidatorRun(probe, { validatorSource: challenge.validator, outputFile: challenge.outputFile });
      // A crash before the output is even read fails every solution; a SyntaxError may be the probe's own doing, so it is left to the crash detector.
      if (crash.kind === "validator-internal" && crash.errorName !== "SyntaxError") {
        const rejection = { kind: "self-contradicting" as const, message: `the validator crashes on its own fixtures before reading the output: ${crash.explanation}; fix the validator's own computation`, line: crash.line ?? undefined };
        return { status: "rejected", rejection, variables: instrumented.variables, verdict: crash };
      }
      return { status: "skipped", reason: `the probe did not reach its dump (exit ${probe.exitCode ?? probe.status})` };
    }
    const captured = JSON.parse(dump[1] as string) as { name: string; text?: string; json?: string }[];
    if (captured.length === 0) return { status: "skipped", reason: `none of ${instrumented.variables.join(", ")} had a value before the output was read` };

    let firstFailure: ValidatorRunVerdict | null = null;
    for (const entry of captured) {
      for (const output of encodings(entry)) {
        const judged = await runValidator(challenge, prepared.fixtures, output, sandbox, workspace);
        if (judged.verdict.kind === "passed") return { status: "passed", variable: entry.name, output };
        firstFailure ??= judged.verdict;
      }
    }
    const first = captured[0] as { name: string };
    const verdict = firstFailure as ValidatorRunVerdict;
    const rejection: ValidatorRejection = {
      kind: "self-contradicting",
      message: `the validator fails on its own expected answer (${first.name} written as ${challenge.outputFile}): ${verdict.explanation}; make the check accept exactly the format the expected value is built in`,
      line: verdict.line ?? undefined,
    };
    return { status: "rejected", rejection, variables: captured.map((entry) => entry.name), verdict };
  } finally {
    await workspace.dispose();
  }
}

/** The ways a captured value may be written as the output file, most literal first, without repeats. */
function encodings(entry: { text?: string; json?: string }): string[] {
  if (entry.text !== undefined) return [entry.text];
  if (entry.json === undefined) return [];
  const value: unknown = JSON.parse(entry.json);
  const forms = [entry.json, JSON.stringify(value, null, 2)];
  if (Array.isArray(value)) forms.push(value.map(String).join("\n"), `${value.map(String).join("\n")}\n`);
  return [...new Set(forms)];
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
