import { InvalidInputError } from "../../core/errors/index.js";
import type { Step } from "../../core/schemas/step.js";
import { MultiTurnEpisodeError } from "../errors/multi-turn-episode-error.js";
import type { PrmTrajectory } from "./prm-trajectory.js";

/**
 * The Step a Monte-Carlo continuation of the trajectory resumes: the
 * rollout's only Step, sampled without a grammar. A multi-turn rollout (more
 * Steps, or sub-episodes) is a MultiTurnEpisodeError naming its episode type;
 * a constrained Step is refused too (a grammar's state cannot be resumed
 * mid-completion). Callers check every trajectory before loading a model.
 */
export function continuedStep(trajectory: PrmTrajectory): Step {
  const { rollout, source } = trajectory;
  const step = trajectory.steps[0];
  if (rollout.steps.length !== 1 || trajectory.steps.length !== 1 || trajectory.subEpisodes > 0 || !step) {
    throw new MultiTurnEpisodeError(source, rollout.episodeType, `${rollout.steps.length} Steps and ${trajectory.subEpisodes} sub-episodes`);
  }
  if (step.constrained) {
    throw new InvalidInputError(`${source}: constrained`, "a Step sampled without a grammar (a grammar's state cannot be resumed mid-completion); label it with --rollouts 0", true);
  }
  return step;
}
