/** What bounds a group's size. */
export interface GroupSizeBounds {
  /** Probability q that some attempt succeeds, in (0, 1). */
  successProbability: number;
  min: number;
  max: number;
}

/**
 * The attempts G a prompt needs so that 1 − (1 − p)^G ≥ q:
 * ⌈log(1 − q) / log(1 − p)⌉, clamped to [min, max]. p ≤ 0 gives `max` (the
 * cap), p ≥ 1 gives `min`.
 */
export function groupSizeForPassRate(passRate: number, bounds: GroupSizeBounds): number {
  const { successProbability, min, max } = bounds;
  if (passRate <= 0) return max;
  if (passRate >= 1) return min;
  const exact = Math.log(1 - successProbability) / Math.log(1 - passRate);
  // A ratio that is an integer in exact arithmetic (p 0.5, q 0.75: 2) can come out a hair above it; it must not round up.
  return Math.min(max, Math.max(min, Math.ceil(exact - 1e-9)));
}
