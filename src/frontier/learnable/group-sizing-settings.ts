import { z } from "zod";

/** How many attempts each clustered prompt gets: the plan's fixed group, or sized to its cluster's pass rate. */
export const GroupSizingSettingsSchema = z
  .strictObject({
    /**
     * `off`: every group has the plan's size. `adaptive`: a prompt of a
     * cluster with smoothed pass rate p̂ gets G = ⌈log(1 − q) / log(1 − p̂)⌉
     * attempts (q = `successProbability`), clamped to [`min`, `max`], so
     * that at least one attempt likely succeeds (a hard cluster gets a big
     * group) and an easy cluster spends little. Default `off`.
     */
    mode: z.enum(["off", "adaptive"]).default("off"),
    /** Probability q that a group of G attempts holds at least one success: 1 − (1 − p̂)^G ≥ q. Default 0.9. */
    successProbability: z.number().gt(0).lt(1).default(0.9),
    /** The smallest group (GRPO compares attempts within a group: 2 at least to learn anything). Default 2. */
    min: z.number().int().min(1).default(2),
    /** The largest group: the cap for a cluster almost never solved. Default 32. */
    max: z.number().int().min(1).default(32),
    /**
     * `true`: the sizes are scaled (the largest common factor that does not
     * exceed it) so a step's rollouts stay at the plan's count — the budget
     * is moved from easy to hard clusters, not grown; clamping can leave a
     * step a little under. `false`: each prompt gets its G as computed, and a
     * step costs what its clusters' difficulty asks for. Default true.
     */
    keepPlanRollouts: z.boolean().default(true),
  })
  .refine((settings) => settings.min <= settings.max, { message: "min ≤ max", path: ["max"] });
export type GroupSizingSettings = z.infer<typeof GroupSizingSettingsSchema>;
export type GroupSizingSettingsInput = z.input<typeof GroupSizingSettingsSchema>;
