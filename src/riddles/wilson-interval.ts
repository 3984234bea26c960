/**
 * The Wilson score interval of a binomial proportion: successes of trials at
 * normal quantile z. Better than the normal approximation at the small counts
 * and extreme rates early stopping sees (it never leaves [0, 1]).
 */
export function wilsonInterval(successes: number, trials: number, z: number): { low: number; high: number } {
  if (trials === 0) return { low: 0, high: 1 };
  const rate = successes / trials;
  const z2 = z * z;
  const centre = (rate + z2 / (2 * trials)) / (1 + z2 / trials);
  const halfWidth = (z / (1 + z2 / trials)) * Math.sqrt((rate * (1 - rate)) / trials + z2 / (4 * trials * trials));
  return { low: Math.max(0, centre - halfWidth), high: Math.min(1, centre + halfWidth) };
}

/** Whether the solve rate is clearly outside [low, high]: the whole Wilson interval lies beyond one bound. */
export function clearlyOutsideBand(successes: number, trials: number, band: { low: number; high: number }, z: number): "below" | "above" | null {
  const interval = wilsonInterval(successes, trials, z);
  if (interval.high < band.low) return "below";
  if (interval.low > band.high) return "above";
  return null;
}
