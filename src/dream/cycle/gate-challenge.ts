import type { Challenge } from "../challenges/challenge.js";
import type { ChallengeSandbox } from "../challenges/challenge-sandbox.js";
import type { ChallengeWorkspaceOptions } from "../challenges/challenge-workspace.js";
import { checkValidatorQuality } from "../gates/check-validator-quality.js";
import { runValidatorSelfTest } from "../gates/run-validator-self-test.js";
import type { ValidatorRejection } from "../gates/validator-rejection.js";

/** The gates' verdict on a challenge; `selfTest` says what the self-test did when it ran. */
export type ChallengeGateVerdict =
  | { accepted: true; selfTest: "passed" | "skipped" }
  | { accepted: false; rejection: ValidatorRejection };

/**
 * The quality gates before a solver sees a challenge: the static validator
 * quality check first (cheap: no process), then the self-test in the sandbox.
 */
export async function gateChallenge(challenge: Challenge, sandbox: ChallengeSandbox, workspace?: ChallengeWorkspaceOptions): Promise<ChallengeGateVerdict> {
  const quality = checkValidatorQuality(challenge);
  if (!quality.accepted) return { accepted: false, rejection: quality.rejection };
  const selfTest = await runValidatorSelfTest(challenge, sandbox, workspace);
  if (selfTest.status === "rejected") return { accepted: false, rejection: selfTest.rejection };
  return { accepted: true, selfTest: selfTest.status };
}
