import { assertSolveRate } from "./solve-rate.js";

/**
 * Absolute Zero's proposer reward: `1 − p` when the task is sometimes solved
 * (0 < p < 1), else 0 — unsolvable and trivial tasks teach nothing.
 */
export function absoluteZeroReward(passRate: number): number {
  assertSolveRate(passRate);
  return passRate > 0 && passRate < 1 ? 1 - passRate : 0;
}
