import { InvalidInputError } from "../../core/errors.js";
import type { GenerateResult } from "../../core/schemas/generate-result.js";
import type { Rollout } from "../../core/schemas/rollout.js";
import type { Step } from "../../core/schemas/step.js";
import { walkResults } from "../../arena/walk-results.js";
import type { LabelledEpisode } from "./labelled-episode.js";
import { taskText } from "./task-text.js";

/** One solution attempt to label: a scored rollout's Steps of one role, and how it ended. */
export interface PrmTrajectory {
  /** Where it was read, `file:line rollout-id`, for error messages. */
  source: string;
  rollout: Rollout;
  roleId: string;
  /** The task as the role saw it (`taskText` of its first Step's prompt). */
  task: string;
  cluster: string;
  /** The role's Steps, in order; the partial solutions are cut from their completions. */
  steps: Step[];
  /** The role's reward, in [0, 1]: 1 for a solved problem under exact match. */
  outcome: number;
}

/**
 * The trajectories in a tree of results: every scored rollout of a labelled
 * episode type in which its role acted. Failed rollouts have no outcome and
 * are left out. `source` is prefixed to each trajectory's rollout id.
 */
export function prmTrajectories(results: readonly GenerateResult[], episodes: Readonly<Record<string, LabelledEpisode>>, source: string): PrmTrajectory[] {
  const trajectories: PrmTrajectory[] = [];
  for (const result of walkResults(results)) {
    const episode = episodes[result.rollout.episodeType];
    if (!episode || result.outcome.status !== "scored") continue;
    const { rollout } = result;
    const steps = rollout.steps.filter((step) => step.roleId === episode.roleId);
    const first = steps[0];
    if (!first) continue;
    const where = `${source} ${rollout.id}`;
    const outcome = result.rewards[episode.roleId];
    if (outcome === undefined || !(outcome >= 0 && outcome <= 1)) {
      throw new InvalidInputError(`${where}: rewards.${episode.roleId}`, "a reward in [0, 1] (a success share); label rollouts of an exact-match episode", outcome);
    }
    const cluster = episode.cluster(rollout);
    if (cluster === undefined || cluster === "") {
      throw new InvalidInputError(`${where}: cluster`, `a cluster name in the ${rollout.episodeType} rollout's artifact`, cluster);
    }
    trajectories.push({ source: where, rollout, roleId: episode.roleId, task: taskText(first.prompt), cluster, steps, outcome });
  }
  return trajectories;
}
