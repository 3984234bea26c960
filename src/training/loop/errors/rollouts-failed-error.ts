import { SelfplayError } from "../../../core/errors/index.js";
import type { FirstRolloutFailure } from "../rollout-failures.js";

/**
 * At least `maxFailedFraction` of a step's rollouts failed (an episode or
 * verifier threw) `maxFailedSteps` steps in a row: the run stops rather than
 * train on what is left, or on nothing. The message names the stage, the
 * error and a rollout id to find in rollouts.jsonl. Exit 1: the job failed.
 */
export class RolloutsFailedError extends SelfplayError {
  override readonly name = "RolloutsFailedError";
  constructor(
    readonly step: number,
    readonly steps: number,
    readonly failed: number,
    readonly total: number,
    readonly first: FirstRolloutFailure,
  ) {
    super(
      `step ${step}: ${failed} of ${total} rollouts failed, and ${steps} steps in a row had at least maxFailedFraction of them fail, so the run stops. ` +
        `The first: rollout ${first.rolloutId} (${first.episodeType}) failed at the ${first.stage} stage with ${first.error.name}: ${first.error.message}. ` +
        "Every failed rollout's stage and error are in rollouts.jsonl (outcome); fix the episode or verifier, or raise maxFailedFraction or maxFailedSteps in the configuration",
    );
  }
}
