import type { Rollout } from "../../core/schemas/rollout.js";
import type { Verifier } from "../../core/verifiers/verifier.js";

/** An episode type whose rollouts become PRM trajectories, and how to read and re-score them. */
export interface LabelledEpisode {
  /** The role whose Steps are the trajectory (the solver). */
  roleId: string;
  /**
   * Scores a rollout whose last Step of the role has another completion (a
   * Monte-Carlo continuation). It must score without a judge and give the
   * role a reward in [0, 1]; the episode's own verifier, for exact-match tasks.
   */
  verifier: Verifier;
  /** The rollout's cluster (for arithmetic, its artifact's `cluster`); undefined when it has none. */
  cluster: (rollout: Rollout) => string | undefined;
}
