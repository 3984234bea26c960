import { z } from "zod";
import { FrontierSettingsSchema } from "./tracker/frontier-settings.js";

/** How `selfplay train` chooses the cluster each proposal targets. */
export const FrontierConfigurationSchema = z
  .strictObject({
    /**
     * `uniform`: drawn uniformly from every cluster (the artifact store).
     * `prm`: the FrontierTracker's PRM-weighted pick — uncertainty × rarity,
     * saturated clusters at 0 — with its fallbacks, fed each step's
     * per-cluster solve rates. Default `uniform`.
     */
    mode: z.enum(["uniform", "prm"]).default("uniform"),
    /** The PRM directory (`selfplay prm train --out`) that `prm` mode scores clusters with; absolute in a run's checkpoint. */
    prmPath: z.string().min(1).optional(),
    /** The tracker's rules (saturation window, exploration and uniform-sample probabilities, …); the specification's defaults when absent. */
    settings: FrontierSettingsSchema.optional(),
  })
  .refine((frontier) => frontier.mode !== "prm" || frontier.prmPath !== undefined, {
    message: "a PRM directory (selfplay prm train --out DIR) when mode is prm: pass --prm DIR, or --frontier uniform",
    path: ["prmPath"],
  });
export type FrontierConfiguration = z.infer<typeof FrontierConfigurationSchema>;
