import { z } from "zod";

/** The `learnable` frontier's rules. */
export const LearnableSettingsSchema = z.strictObject({
  /**
   * Probability that a prompt's cluster is drawn by its data share alone
   * (uniform over the data) instead of by weight — the dream-cycle seed's
   * sanity floor against lock-in: a cluster whose estimate is wrong (or
   * stale) still gets played and corrected. Default 0.2, the seed's value.
   */
  uniformFloor: z.number().min(0).max(1).default(0.2),
  /**
   * Weight of learning progress (|newer − older half of the window's pass
   * rate|) added to a group's disagreement probability, both × the cluster's
   * share. Default 0: the disagreement alone.
   */
  progressWeight: z.number().min(0).default(0),
});
export type LearnableSettings = z.infer<typeof LearnableSettingsSchema>;
export type LearnableSettingsInput = z.input<typeof LearnableSettingsSchema>;
