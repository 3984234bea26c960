/**
 * `sizes` scaled by the largest common factor s for which
 * Σ clamp(round(size · s), min, max) does not exceed `total` (found by
 * bisection; the sum never decreases as s grows), each clamped to [min, max]:
 * the proportions of the sizes kept, their sum brought to the budget. When
 * even the smallest sizes overshoot it, every size is `min`.
 */
export function scaleGroupSizes(sizes: readonly number[], total: number, min: number, max: number): number[] {
  const scaled = (factor: number) => sizes.map((size) => Math.min(max, Math.max(min, Math.round(size * factor))));
  const sum = (factor: number) => scaled(factor).reduce((accumulated, size) => accumulated + size, 0);
  let low = 0;
  let high = Math.max(1, max / Math.max(Math.min(...sizes), 1e-9));
  if (sum(high) <= total) return scaled(high);
  for (let iteration = 0; iteration < 60; iteration++) {
    const middle = (low + high) / 2;
    if (sum(middle) <= total) low = middle;
    else high = middle;
  }
  return scaled(low);
}
