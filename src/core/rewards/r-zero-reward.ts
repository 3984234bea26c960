import { assertSolveRate } from "./solve-rate.js";

/** R-Zero's uncertainty reward `min(p, 1 − p)`: highest (0.5) at a 50% solve rate. */
export function rZeroReward(passRate: number): number {
  assertSolveRate(passRate);
  return Math.min(passRate, 1 - passRate);
}
