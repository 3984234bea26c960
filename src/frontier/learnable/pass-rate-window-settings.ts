import { z } from "zod";

/** How a cluster's recent pass rate is estimated, for the `learnable` frontier and for group sizing. */
export const PassRateWindowSettingsSchema = z.strictObject({
  /** Steps of a cluster's outcomes the estimate looks back over (the steps the cluster was played in). Default 4. */
  window: z.number().int().min(1).default(4),
  /**
   * The pass rate assumed before any attempt, strictly between 0 and 1: an
   * unplayed cluster's estimate, and the smoothing that keeps a cluster never
   * solved (or always solved) off 0 (1). Default 0.5: an unplayed cluster has
   * the highest disagreement (a group of it most likely splits), so it gets
   * tried.
   */
  priorPassRate: z.number().gt(0).lt(1).default(0.5),
  /** How many attempts the prior counts as (its pseudo-count, > 0): 2 at 0.5 is Laplace's rule (s + 1) / (n + 2). Default 2. */
  priorAttempts: z.number().positive().default(2),
});
export type PassRateWindowSettings = z.infer<typeof PassRateWindowSettingsSchema>;
export type PassRateWindowSettingsInput = z.input<typeof PassRateWindowSettingsSchema>;
