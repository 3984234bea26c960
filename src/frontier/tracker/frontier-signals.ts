import { InvalidInputError } from "../../core/errors/index.js";

/**
 * How unsure a PRM is about a state: 1 − 2·|p − 0.5| — 1 at p = 0.5 (no
 * opinion, or a true boundary case), 0 at p = 0 or 1.
 */
export function boundaryUncertainty(probability: number): number {
  if (!(probability >= 0 && probability <= 1)) throw new InvalidInputError("probability", "a number in [0, 1]", probability);
  return 1 - 2 * Math.abs(probability - 0.5);
}

/**
 * How little a cluster has been explored: 1 / (1 + log1p(count)) — 1 for no
 * trajectories, decaying slowly, so a well-explored cluster still gets weight
 * when the PRM is unsure of it.
 */
export function clusterRarity(trajectoryCount: number): number {
  if (!Number.isInteger(trajectoryCount) || trajectoryCount < 0) {
    throw new InvalidInputError("trajectoryCount", "an integer ≥ 0", trajectoryCount);
  }
  return 1 / (1 + Math.log1p(trajectoryCount));
}
