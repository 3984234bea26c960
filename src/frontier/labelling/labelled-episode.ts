import type { Verifier } from "../../core/verifiers/verifier.js";

/** An episode type whose rollouts become PRM trajectories, and how to re-score them. */
export interface LabelledEpisode {
  /** The roles whose Steps are trajectories: the episode's trainable roles (not frozen ones). */
  roleIds: readonly string[];
  /**
   * Scores a single-Step rollout whose completion is replaced (a Monte-Carlo
   * continuation): the episode's own verifier. It gets no judge and no
   * sub-episodes (`continuationScoringContext`), so episodes that need either
   * are labelled by outcome only.
   */
  verifier: Verifier;
}
