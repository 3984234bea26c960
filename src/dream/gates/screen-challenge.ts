import type { Challenge } from "../challenges/challenge.js";
import type { ChallengeSandbox } from "../challenges/challenge-sandbox.js";
import { ChallengeWorkspace, type ChallengeWorkspaceOptions } from "../challenges/challenge-workspace.js";
import { prepareFixtures } from "../challenges/run-challenge-attempt.js";
import { checkValidatorQuality } from "./check-validator-quality.js";
import { fixtureFilesWritten } from "./fixture-files-written.js";
import { runValidatorSelfTest, type ValidatorSelfTestResult } from "./run-validator-self-test.js";
import type { ValidatorRejection } from "./validator-rejection.js";

/** The gates' verdict on a challenge before any solver sees it. */
export type ChallengeScreening =
  | { accepted: true; selfTest: ValidatorSelfTestResult }
  | { accepted: false; rejection: ValidatorRejection; selfTest: ValidatorSelfTestResult | null };

/**
 * Both gates in order, cheapest first: the static quality gate (no program
 * runs), then the self-test in the sandbox. A skipped self-test accepts: the
 * gate is best effort. The rejection's kind is what the regeneration loop
 * feeds back to the generator.
 */
export async function screenChallenge(
  challenge: Pick<Challenge, "setup" | "validator" | "outputFile">,
  sandbox: ChallengeSandbox,
  options: ChallengeWorkspaceOptions = {},
): Promise<ChallengeScreening> {
  let quality = checkValidatorQuality(challenge);
  if (!quality.accepted && quality.rejection.kind === "no-fixture-reference" && fixtureFilesWritten(challenge.setup).length === 0) {
    // The setup names its files in a way its AST does not show (a loop over a table, say): ask the setup itself.
    const fixtureFiles = await fixtureFilesFromRun(challenge, sandbox, options);
    if (fixtureFiles !== null) quality = checkValidatorQuality(challenge, { fixtureFiles });
  }
  if (!quality.accepted) return { accepted: false, rejection: quality.rejection, selfTest: null };
  const selfTest = await runValidatorSelfTest(challenge, sandbox, options);
  if (selfTest.status === "rejected") return { accepted: false, rejection: selfTest.rejection, selfTest };
  return { accepted: true, selfTest };
}

/** The files the setup writes when run; null when it fails. */
async function fixtureFilesFromRun(challenge: Pick<Challenge, "setup">, sandbox: ChallengeSandbox, options: ChallengeWorkspaceOptions): Promise<string[] | null> {
  const workspace = new ChallengeWorkspace(options);
  try {
    const prepared = await prepareFixtures(challenge, sandbox, workspace);
    return prepared.fixtures === null ? null : [...prepared.fixtures.keys()];
  } finally {
    await workspace.dispose();
  }
}
