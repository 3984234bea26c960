import { InvalidInputError } from "../errors/index.js";
import { assertSolveRate } from "./solve-rate.js";

export interface GaussianSolveRateRewardOptions {
  /** Solve rate the proposer should aim for, in [0, 1]. Default 0.5. */
  target?: number;
  /** Width of the bell, in solve-rate units (0.1 = 10 points). Default 0.1. */
  sigma?: number;
}

/**
 * The riddle curriculum's reward: `exp(−½((p − μ)/σ)²)`, 1 at the target solve
 * rate and falling off on both sides (the plan states it in percent; this is
 * the same function on fractions).
 */
export function gaussianSolveRateReward(passRate: number, options: GaussianSolveRateRewardOptions = {}): number {
  const target = options.target ?? 0.5;
  const sigma = options.sigma ?? 0.1;
  assertSolveRate(passRate);
  if (!(target >= 0 && target <= 1)) throw new InvalidInputError("target", "a number in [0, 1]", target);
  if (!(sigma > 0)) throw new InvalidInputError("sigma", "a number > 0", sigma);
  const z = (passRate - target) / sigma;
  return Math.exp(-0.5 * z * z);
}
