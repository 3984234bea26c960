import { ArtifactStore } from "../../arena/artifact-store.js";
import { ArithmeticProposerEpisode } from "../../tasks/arithmetic/arithmetic-proposer-episode.js";
import { ArithmeticSolverEpisode } from "../../tasks/arithmetic/arithmetic-solver-episode.js";
import { clusterNames } from "../../tasks/arithmetic/arithmetic-task.js";
import type { RolloutWorkload } from "./measure-client-rollouts.js";

/** The RL step's own workload: `proposals` arithmetic proposals a round, each answered by 4 solvers, all proposals in flight at once. */
export function arithmeticWorkload(proposals: number, rounds: number): RolloutWorkload {
  return {
    episodes: [
      { episode: new ArithmeticProposerEpisode({ solvers: 4 }), store: ArtifactStore.of(clusterNames().map((cluster) => ({ cluster }))) },
      { episode: new ArithmeticSolverEpisode() },
    ],
    plan: [{ episodeType: "arithmetic-propose", count: proposals }],
    concurrency: proposals,
    rounds,
  };
}
