import { InvalidInputError } from "../../core/errors/index.js";
import type { ScoringContext } from "../../core/verifiers/verifier.js";
import { MultiTurnEpisodeError } from "../errors/multi-turn-episode-error.js";
import type { PrmTrajectory } from "./prm-trajectory.js";

/**
 * What a verifier gets when it re-scores a continuation of `trajectory`: no
 * judge (Monte-Carlo labels re-score thousands of continuations) and no
 * sub-episodes. Reading `children` is refused by name, not answered with an
 * empty list: a verifier that scores sub-episodes (a proposer paid by its
 * solvers) would need them run again on the new completion, even when the
 * original rollout, an invalid proposal, ran none.
 */
export function continuationScoringContext(trajectory: PrmTrajectory): ScoringContext {
  const refuseJudge = (): never => {
    throw new InvalidInputError("verifier", `a verifier that scores without a judge for Monte-Carlo labels (the ${trajectory.rollout.episodeType} verifier asked one): label it with --rollouts 0`);
  };
  return {
    get children(): never {
      throw new MultiTurnEpisodeError(trajectory.source, trajectory.rollout.episodeType, "a verifier that scores sub-episodes");
    },
    judge: async () => refuseJudge(),
    judgeObject: async () => refuseJudge(),
  };
}
