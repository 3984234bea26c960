import { z } from "zod";
import { GroupSizingSettingsSchema } from "./learnable/group-sizing-settings.js";
import { LearnableSettingsSchema } from "./learnable/learnable-settings.js";
import { PassRateWindowSettingsSchema } from "./learnable/pass-rate-window-settings.js";
import { FrontierSettingsSchema } from "./tracker/frontier-settings.js";

/** How `selfplay train` chooses the cluster of each clustered prompt, and how many attempts each gets. */
export const FrontierConfigurationSchema = z
  .strictObject({
    /**
     * `uniform`: drawn uniformly from every cluster (the artifact store).
     * `prm`: the FrontierTracker's PRM-weighted pick — uncertainty × rarity,
     * saturated clusters at 0 — with its fallbacks, fed each step's
     * per-cluster solve rates. `learnable`: no PRM; each cluster weighted by
     * its share of the data × the probability that a group of its attempts
     * disagrees at its recent pass rate (what a GRPO group of it can teach
     * now), with a floor drawn by share. Default `uniform`.
     */
    mode: z.enum(["uniform", "prm", "learnable"]).default("uniform"),
    /** The PRM directory (`selfplay prm train --out`) that `prm` mode scores clusters with; absolute in a run's checkpoint. */
    prmPath: z.string().min(1).optional(),
    /** The tracker's rules (saturation window, exploration and uniform-sample probabilities, …); the specification's defaults when absent. */
    settings: FrontierSettingsSchema.optional(),
    /** The `learnable` mode's rules (uniform floor, learning-progress weight); their defaults when absent. */
    learnable: LearnableSettingsSchema.optional(),
    /** How a cluster's recent pass rate is estimated (window, prior), for `learnable` and for adaptive group sizing; their defaults when absent. */
    passRates: PassRateWindowSettingsSchema.optional(),
    /** Groups sized to each cluster's difficulty (environments with clusters); `off` when absent. */
    groupSizing: GroupSizingSettingsSchema.optional(),
  })
  .refine((frontier) => frontier.mode !== "prm" || frontier.prmPath !== undefined, {
    message: "a PRM directory (selfplay prm train --out DIR) when mode is prm: pass --prm DIR, or --frontier uniform",
    path: ["prmPath"],
  });
export type FrontierConfiguration = z.infer<typeof FrontierConfigurationSchema>;
