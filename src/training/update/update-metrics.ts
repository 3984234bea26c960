/** What one policy update did; logged every step (`metrics.jsonl`). */
export interface UpdateMetrics {
  /**
   * Mean reward of the records this update trained on: records left out (zero advantage, greedy, constrained …) do not
   * count, so it differs from `rewards.<role>`, the mean over every scored rollout of the step.
   */
  trainedReward: number;
  /** Aggregated k3 KL to the reference policy (0 without one). */
  klToReference: number;
  /** Aggregated entropy (nats) of softmax(logits / T) at the trained tokens, averaged over minibatches (null when nothing was trained). */
  entropy: number | null;
  /** Weighted share of clipped tokens, averaged over minibatches. */
  clipFraction: number;
  /** Global gradient norm before clipping, averaged over minibatches. */
  gradientNorm: number;
  /** Mean completion tokens per trained record. */
  responseLength: number;
  /** Share of the batch's credit groups whose records all have advantage 0 (all members scored alike), before any record is left out. */
  zeroAdvantageGroupShare: number;
  /** Mean k3 KL(engine ‖ trainer) at the sampled tokens, before the update. */
  mismatchKl: number;
  /** Mean truncated importance weight min(π_old/π_engine, C). */
  importanceWeight: number;
  /** Records the update trained on (one per Step of a trainable role, less those left out). */
  trainedRecords: number;
  /** Completion tokens of those records: the tokens the loss covers. */
  trainedTokens: number;
  /** Records left out, by reason. */
  skippedRecords: { constrained: number; truncated: number; greedy: number; empty: number; zeroAdvantage: number };
  /** `ppo-critic`: the clipped value loss, averaged over minibatches; null for the critic-free algorithms. */
  valueLoss: number | null;
  /**
   * True when the batch had no trainable record (all constrained, greedy or
   * empty, or no records at all): nothing was scored and no optimizer step
   * taken. The update is logged like any other, so such steps are counted
   * from the metrics rather than stopping a run.
   */
  skippedUpdate: boolean;
  /** Optimizer steps taken and skipped (a non-finite loss or gradient skips a step, never corrupts weights). */
  optimizerSteps: number;
  /** Optimizer steps skipped for a non-finite loss or gradient (no weight changed). */
  skippedOptimizerSteps: number;
  /** Milliseconds the update took, scoring π_old included. */
  elapsedMs: number;
  /**
   * Graph nodes the ggml trainer computed on ggml's CPU during this update although its policy is on
   * another device (an operation the device lacks; 0 on the CPU). Absent for tfjs.
   */
  fallbackNodes?: number;
}
