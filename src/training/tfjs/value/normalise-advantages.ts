/**
 * Advantages shifted and scaled to mean 0 and standard deviation 1 over every
 * token of the batch (as PPO implementations do), so the step size does not
 * depend on the reward scale. A batch whose advantages are all equal becomes 0.
 */
export function normaliseAdvantages(advantages: readonly Float64Array[]): Float64Array[] {
  const tokens = advantages.reduce((sum, values) => sum + values.length, 0);
  if (tokens === 0) return advantages.map((values) => values.slice());
  let sum = 0;
  for (const values of advantages) for (const value of values) sum += value;
  const mean = sum / tokens;
  let squares = 0;
  for (const values of advantages) for (const value of values) squares += (value - mean) ** 2;
  const deviation = Math.sqrt(squares / tokens);
  return advantages.map((values) => values.map((value) => (value - mean) / (deviation + 1e-8)));
}
