import { InvalidInputError } from "../../core/errors/index.js";

/**
 * Monte-Carlo labels were asked of a multi-turn episode: a continuation
 * replaces one Step's completion and is re-scored by the episode's verifier
 * alone, which only means the same thing when that Step is the whole rollout
 * (later turns and sub-episodes answered the original completion).
 */
export class MultiTurnEpisodeError extends InvalidInputError {
  override readonly name = "MultiTurnEpisodeError";
  constructor(
    /** Where the rollout was read, `file:line rollout-id`. */
    readonly source: string,
    readonly episodeType: string,
    /** What makes it multi-turn: `3 Steps and 0 sub-episodes`, or a verifier that reads sub-episodes. */
    found: string,
  ) {
    super(
      `${source}: ${episodeType}`,
      `a single-Step episode for Monte-Carlo labels (a continuation is re-scored by the episode's verifier alone); ${episodeType} is multi-turn: label it with --rollouts 0 (outcome labels)`,
      found,
    );
  }
}
