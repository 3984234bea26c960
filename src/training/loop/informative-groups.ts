import type { GenerateResult } from "../../core/schemas/generate-result.js";
import { walkResults } from "../../arena/walk-results.js";

/** Whether a role's Steps in an episode type are trained: trainable and not bound to a frozen policy. */
export type IsTrainedRole = (episodeType: string, roleId: string) => boolean;

/** A step's credit groups (group ids, in first-seen order): informative ones and those whose members all scored alike. */
export interface GroupSplit {
  informative: string[];
  uninformative: string[];
}

/**
 * Splits the groups of `results` (sub-episodes included) as GRPO sees them: a
 * group is a group id with two or more scored members acting as one trained
 * role, and informative when their rewards for that role differ (a non-zero
 * variance, so non-zero advantages). Ungrouped rollouts (a group id alone, a
 * proposer) are in neither list: credit compares them with a baseline.
 */
export function informativeGroups(results: readonly GenerateResult[], isTrainedRole: IsTrainedRole): GroupSplit {
  const rewardsByGroupAndRole = new Map<string, { groupId: string; rewards: number[] }>();
  for (const result of walkResults(results)) {
    if (result.outcome.status !== "scored") continue;
    const actors = new Set(result.rollout.steps.map((step) => step.roleId));
    for (const [roleId, reward] of Object.entries(result.rewards)) {
      if (!actors.has(roleId) || !isTrainedRole(result.rollout.episodeType, roleId)) continue;
      const key = JSON.stringify([result.rollout.groupId, roleId]);
      const entry = rewardsByGroupAndRole.get(key) ?? { groupId: result.rollout.groupId, rewards: [] };
      entry.rewards.push(reward);
      rewardsByGroupAndRole.set(key, entry);
    }
  }
  const informative = new Map<string, boolean>();
  for (const { groupId, rewards } of rewardsByGroupAndRole.values()) {
    if (rewards.length < 2) continue;
    const varies = rewards.some((reward) => reward !== rewards[0]);
    informative.set(groupId, (informative.get(groupId) ?? false) || varies);
  }
  const groups = [...informative];
  return { informative: groups.filter(([, varies]) => varies).map(([groupId]) => groupId), uninformative: groups.filter(([, varies]) => !varies).map(([groupId]) => groupId) };
}
