import { z } from "zod";

/** Begins the message of every PRM-weighted pick, so a self-play log can attribute its source. */
export const FRONTIER_TARGET_HINT = "FRONTIER TARGET (PRM-weighted)";

/** Which rule chose the cluster. */
export const FrontierReasonSchema = z.enum([
  /** PRM uncertainty × rarity, saturated clusters at 0. */
  "prm-weighted",
  /** `pickSeed`: weighted by brittleness among the unsaturated clusters that struggle. */
  "brittle-pool",
  /** `pickSeed`: its exploration roll came up; uniform over unsaturated clusters. */
  "exploration-roll",
  /** `pickSeed`: nothing struggles; uniform over unsaturated clusters. */
  "no-brittle-cluster",
  /** `pickSeed`: every candidate is saturated; uniform over all — the caller should rotate to new material. */
  "all-saturated",
]);
export type FrontierReason = z.infer<typeof FrontierReasonSchema>;

/** Why `pickFrontierSeed` fell back to `pickSeed`. */
export const FrontierFallbackSchema = z.enum([
  /** No PRM, or no trajectories yet: the signals are empty. */
  "cold-start",
  /** The uniform-sample roll came up (the guard against a PRM that locks onto one cluster). */
  "uniform-sample-roll",
  /** Every cluster is saturated or certain: nothing to weight. */
  "all-weights-zero",
  /** The PRM threw or returned something other than probabilities; see `error`. */
  "prm-error",
]);
export type FrontierFallback = z.infer<typeof FrontierFallbackSchema>;

/** A chosen cluster and how it was chosen; `message` is what was logged. */
export const FrontierDecisionSchema = z.object({
  cluster: z.string(),
  reason: FrontierReasonSchema,
  /** Set when `pickFrontierSeed` fell back to `pickSeed`. */
  fallback: FrontierFallbackSchema.nullable(),
  /** The weight of each cluster in the draw that chose (empty for uniform draws). */
  weights: z.record(z.string(), z.number()),
  /** Candidates that were saturated when the choice was made. */
  saturated: z.array(z.string()),
  /** The PRM's error, `Name: message`, when `fallback` is `prm-error`. */
  error: z.string().nullable(),
  message: z.string(),
});
export type FrontierDecision = z.infer<typeof FrontierDecisionSchema>;
