import { ChallengeSchema } from "../../dream/challenges/challenge.js";
import { createChallengeSandbox, type ChallengeSandboxOptions } from "../../dream/challenges/create-challenge-sandbox.js";
import { runChallengeAttempt } from "../../dream/challenges/run-challenge-attempt.js";
import { attemptErrorSummary } from "../../dream/solver/attempt-error-summary.js";
import { extractSolutionSource } from "../../dream/solver/extract-solution-source.js";
import type { Rollout } from "../../core/schemas/rollout.js";
import { lastCompletion } from "../../core/verifiers/last-completion.js";
import type { ScoringContext, Verifier, VerifierOutput } from "../../core/verifiers/verifier.js";
import { UngradableChallengeError } from "./errors/index.js";

export interface DreamAttemptVerifierOptions {
  /** The solver role whose last completion is the attempt. */
  roleId: string;
  /** The sandbox limits of the setup, solution and validator runs. */
  sandbox: ChallengeSandboxOptions;
}

/**
 * Grades a solver's attempt by running it: setup, solution, validator, each in
 * the sandbox (runChallengeAttempt). Reward 1 when the validator passes the
 * solution's output, else 0. A challenge that cannot grade — its setup fails,
 * or its validator crashes on its own (validator-internal) — throws
 * UngradableChallengeError: the arena records the rollout as failed at
 * scoring, so its Steps are never trained on a reward the solver did not earn.
 */
export class DreamAttemptVerifier implements Verifier {
  private readonly sandbox;

  constructor(private readonly options: DreamAttemptVerifierOptions) {
    this.sandbox = createChallengeSandbox(options.sandbox);
  }

  async score(rollout: Rollout, _context: ScoringContext): Promise<VerifierOutput> {
    const challenge = ChallengeSchema.parse(rollout.artifacts["challenge"]);
    const solution = extractSolutionSource(lastCompletion(rollout, this.options.roleId) ?? "");
    const result = await runChallengeAttempt(challenge, solution, this.sandbox);
    if (result.stoppedAt === "setup") throw new UngradableChallengeError(challenge.id, "setup-failed", result.setup.stderr);
    if (result.verdict?.abortsCycle) throw new UngradableChallengeError(challenge.id, "validator-internal", result.verdict.explanation);
    return {
      rewards: { [this.options.roleId]: result.passed ? 1 : 0 },
      details: { passed: result.passed, cluster: challenge.cluster, tier: challenge.tier, validatorKind: result.verdict?.kind ?? null, error: result.passed ? null : attemptErrorSummary(result) },
    };
  }
}
