import type { GenerateResult } from "../../core/schemas/generate-result.js";
import type { Rollout } from "../../core/schemas/rollout.js";
import type { Step } from "../../core/schemas/step.js";

/** A Step of a scored rollout and the reward its role earned in that rollout. */
export interface ScoredStep {
  rollout: Rollout;
  /** Its index in `rollout.steps`. */
  stepIndex: number;
  step: Step;
  /** `rewards[step.roleId]` of the rollout's result. */
  reward: number;
}

export interface ScoredSteps {
  /** Depth first (a rollout's Steps, then its sub-episodes'), in file order. */
  steps: ScoredStep[];
  /** Rollouts whose episode failed: they have no rewards, and their Steps are left out (their scored sub-episodes are not). */
  failedRollouts: number;
  /** Steps of a role the verifier gave no reward in that rollout. */
  unrewardedSteps: number;
  /** Steps of other roles than the one asked for. */
  otherRoleSteps: number;
}

/** Every Step of the scored rollouts in these result trees, with its role's reward; only `role`'s when given. */
export function scoredSteps(results: readonly GenerateResult[], role?: string): ScoredSteps {
  const found: ScoredSteps = { steps: [], failedRollouts: 0, unrewardedSteps: 0, otherRoleSteps: 0 };
  const visit = (result: GenerateResult) => {
    if (result.outcome.status === "scored") {
      result.rollout.steps.forEach((step, stepIndex) => {
        const reward = result.rewards[step.roleId];
        if (role !== undefined && step.roleId !== role) found.otherRoleSteps++;
        else if (reward === undefined) found.unrewardedSteps++;
        else found.steps.push({ rollout: result.rollout, stepIndex, step, reward });
      });
    } else {
      found.failedRollouts++;
    }
    for (const child of result.children) visit(child);
  };
  for (const result of results) visit(result);
  return found;
}
