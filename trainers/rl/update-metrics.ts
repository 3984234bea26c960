/** What one policy update did; logged every step (`metrics.jsonl`). */
export interface UpdateMetrics {
  /** Mean reward of the records trained on. */
  reward: number;
  /** Aggregated k3 KL to the reference policy (0 without one). */
  klToReference: number;
  /** Aggregated entropy of the policy at the trained tokens (null when the policy does not report it). */
  entropy: number | null;
  /** Weighted share of clipped tokens, averaged over minibatches. */
  clipFraction: number;
  /** Global gradient norm before clipping, averaged over minibatches. */
  gradientNorm: number;
  /** Mean completion tokens per trained record. */
  responseLength: number;
  /** Share of credit groups whose advantages are all zero. */
  zeroAdvantageGroups: number;
  /** Mean k3 KL(engine ‖ trainer) at the sampled tokens, before the update. */
  mismatchKl: number;
  /** Mean truncated importance weight min(π_old/π_engine, C). */
  importanceWeight: number;
  trainedRecords: number;
  trainedTokens: number;
  /** Records left out, by reason. */
  skippedRecords: { constrained: number; greedy: number; empty: number };
  /** Optimizer steps taken and skipped (a non-finite loss or gradient skips a step, never corrupts weights). */
  optimizerSteps: number;
  skippedOptimizerSteps: number;
  elapsedMs: number;
}
