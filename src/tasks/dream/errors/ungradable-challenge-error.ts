import { SelfplayError } from "../../../core/errors/index.js";

/**
 * A challenge whose grading broke on its own (its setup failed, or its
 * validator crashed before judging the output): no attempt at it can be
 * scored. Thrown by the verifier so the rollout is left out of training.
 */
export class UngradableChallengeError extends SelfplayError {
  override readonly name = "UngradableChallengeError";

  constructor(
    readonly challengeId: string,
    readonly reason: "setup-failed" | "validator-internal",
    detail: string | null,
  ) {
    super(`challenge ${challengeId} cannot grade an attempt (${reason}${detail ? `: ${detail.slice(0, 200)}` : ""}); its attempts are left out of training`);
  }
}
