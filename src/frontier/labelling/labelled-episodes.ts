import type { Rollout } from "../../core/schemas/rollout.js";
import type { LabelledEpisode } from "./labelled-episode.js";

/** What `prmTrajectories` needs to know of the environment that made the rollouts. */
export interface LabelledEpisodes {
  /** The episode types whose rollouts become trajectories; rollouts of other types are only walked through. */
  byType: Readonly<Record<string, LabelledEpisode>>;
  /**
   * A rollout's own cluster (the environment's cluster of its artifact), or
   * undefined: then it takes its parent rollout's (the sub-episodes of a
   * clustered rollout play its cluster), or its episode type's name at the
   * top of a tree (one cluster per type when the environment has none).
   */
  clusterOf(rollout: Rollout): string | undefined;
}
