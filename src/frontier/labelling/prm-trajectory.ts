import { InvalidInputError } from "../../core/errors/index.js";
import type { GenerateResult } from "../../core/schemas/generate-result.js";
import type { Rollout } from "../../core/schemas/rollout.js";
import type { Step } from "../../core/schemas/step.js";
import type { LabelledEpisodes } from "./labelled-episodes.js";
import { outcomeLabel } from "./outcome-label.js";
import { taskText } from "./task-text.js";

/** One solution attempt to label: a scored rollout's Steps of one role, and how it ended. */
export interface PrmTrajectory {
  /** Where it was read, `file:line rollout-id`, for error messages. */
  source: string;
  rollout: Rollout;
  /** Sub-episodes the rollout ran: a continuation cannot be re-scored without running them again. */
  subEpisodes: number;
  roleId: string;
  /** The task as the role saw it (`taskText` of its first Step's prompt). */
  task: string;
  cluster: string;
  /** The role's Steps, in order; the partial solutions are cut from their completions. */
  steps: Step[];
  /** The role's outcome label (`outcomeLabel` of its reward): 1 for a success, else 0. */
  outcome: number;
}

/**
 * The trajectories in a tree of results: for every scored rollout of a
 * labelled episode type, one per labelled role that has Steps in it, in
 * role order. Failed rollouts have no outcome and are left out (their scored
 * sub-episodes are not). `source` is prefixed to each trajectory's rollout id.
 */
export function prmTrajectories(results: readonly GenerateResult[], episodes: LabelledEpisodes, source: string): PrmTrajectory[] {
  const trajectories: PrmTrajectory[] = [];
  const visit = (result: GenerateResult, parentCluster: string | undefined) => {
    const { rollout } = result;
    const scored = result.outcome.status === "scored";
    // A failed rollout's artifact may be missing: it is asked for its cluster only to pass it to scored sub-episodes.
    if (!scored && result.children.length === 0) return;
    const where = `${source} ${rollout.id}`;
    const own = episodes.clusterOf(rollout);
    if (own !== undefined && (typeof own !== "string" || own === "")) {
      throw new InvalidInputError(`${where}: cluster`, `a cluster name for the ${rollout.episodeType} rollout's artifact from the environment's clusters`, own);
    }
    const cluster = own ?? parentCluster ?? rollout.episodeType;
    const roleIds = scored ? (episodes.byType[rollout.episodeType]?.roleIds ?? []) : [];
    for (const roleId of roleIds) {
      const steps = rollout.steps.filter((step) => step.roleId === roleId);
      const first = steps[0];
      if (!first) continue;
      const reward = result.rewards[roleId];
      if (reward === undefined) throw new InvalidInputError(`${where}: rewards.${roleId}`, `a reward for every role with Steps (the ${rollout.episodeType} verifier gave none)`);
      trajectories.push({ source: where, rollout, subEpisodes: result.children.length, roleId, task: taskText(first.prompt), cluster, steps, outcome: outcomeLabel(reward) });
    }
    for (const child of result.children) visit(child, cluster);
  };
  for (const result of results) visit(result, undefined);
  return trajectories;
}
