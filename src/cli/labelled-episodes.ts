import type { LabelledEpisode } from "../curriculum/labelling/labelled-episode.js";
import { ArithmeticSolverEpisode } from "../examples/arithmetic/arithmetic-solver-episode.js";

/** The episode types `selfplay prm label` makes trajectories of: the solver of `selfplay train`. */
export const LABELLED_EPISODES: Readonly<Record<string, LabelledEpisode>> = {
  "arithmetic-solve": {
    roleId: "solver",
    verifier: new ArithmeticSolverEpisode().verifier,
    cluster: (rollout) => (typeof rollout.artifacts.cluster === "string" ? rollout.artifacts.cluster : undefined),
  },
};
