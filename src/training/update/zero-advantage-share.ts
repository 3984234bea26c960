import type { TrainingRecord } from "../../core/schemas/training-record.js";

/**
 * Share of credit groups whose records all have advantage 0 (every member got
 * the same reward): such groups teach nothing, and a high share means the
 * task is too easy or too hard for the policy (DAPO filters them).
 */
export function zeroAdvantageGroupShare(records: readonly TrainingRecord[]): number {
  const groups = new Map<string, boolean>();
  for (const record of records) {
    groups.set(record.groupId, (groups.get(record.groupId) ?? true) && Math.abs(record.advantage) < 1e-9);
  }
  if (groups.size === 0) return 0;
  return [...groups.values()].filter(Boolean).length / groups.size;
}
