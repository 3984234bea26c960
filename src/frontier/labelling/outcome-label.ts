/**
 * A trajectory's label from its role's reward: 1 when the reward is
 * positive (a success), else 0. Exact-match rewards (0 or 1) keep their
 * value; graded or negative ones (−1 for an invalid reply) become whether
 * the attempt succeeded — the same rule the frontier's default cluster
 * outcomes count a solve by, so the PRM predicts what the frontier measures.
 */
export function outcomeLabel(reward: number): 0 | 1 {
  return reward > 0 ? 1 : 0;
}
