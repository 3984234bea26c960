import type { Challenge } from "../challenges/challenge.js";
import type { ChallengeSandbox } from "../challenges/challenge-sandbox.js";
import type { ChallengeWorkspaceOptions } from "../challenges/challenge-workspace.js";
import { checkValidatorQuality } from "./check-validator-quality.js";
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
  const quality = checkValidatorQuality(challenge);
  if (!quality.accepted) return { accepted: false, rejection: quality.rejection, selfTest: null };
  const selfTest = await runValidatorSelfTest(challenge, sandbox, options);
  if (selfTest.status === "rejected") return { accepted: false, rejection: selfTest.rejection, selfTest };
  return { accepted: true, selfTest };
}
