import type { JsonValue } from "../json.js";

/** One role's reward in one rollout, as the credit assigner sees it. */
export interface CreditSample {
  rolloutId: string;
  roleId: string;
  /** Samples with the same groupId and roleId answered the same prompt. */
  groupId: string;
  reward: number;
}

/**
 * Turns rewards into advantages. `assign` returns one advantage per sample, in
 * order. Stateful assigners (running baselines) expose their state for checkpoints.
 */
export interface CreditAssigner {
  readonly name: string;
  assign(samples: readonly CreditSample[]): number[];
  snapshot?(): JsonValue;
  restore?(state: JsonValue): void;
}

/** Indices of samples grouped by (groupId, roleId), in first-seen order. */
export function groupSamples(samples: readonly CreditSample[]): number[][] {
  const groups = new Map<string, number[]>();
  samples.forEach((sample, index) => {
    const key = JSON.stringify([sample.groupId, sample.roleId]);
    const members = groups.get(key);
    if (members) members.push(index);
    else groups.set(key, [index]);
  });
  return [...groups.values()];
}
