import { z } from "zod";

const probability = z.number().min(0).max(1);

/** The FrontierTracker's rules, with the specification's defaults. */
export const FrontierSettingsSchema = z
  .strictObject({
    /**
     * A cluster is saturated when its last `saturationWindow` outcomes are all
     * clean: no learning signal left, so frontier picks give it weight 0. Default 2.
     */
    saturationWindow: z.number().int().positive().default(2),
    /** An outcome is clean when its first-attempt solve rate is at least this. Default 0.95. */
    cleanThreshold: probability.default(0.95),
    /** Outcomes that count towards a cluster's brittleness, most recent last. Default 5. */
    brittlenessWindow: z.number().int().positive().default(5),
    /** Chance that `pickSeed` explores uniformly instead of weighting the brittle pool. Default 0.35. */
    explorationProbability: probability.default(0.35),
    /**
     * Chance that `pickFrontierSeed` ignores the PRM and falls back to
     * `pickSeed`: a cold or wrong PRM must not lock self-play onto one
     * cluster and starve the others of the data that would correct it. Default 0.2.
     */
    uniformSampleProbability: probability.default(0.2),
    /** Challenge hashes remembered per cluster for deduplication. Default 20. */
    dedupWindow: z.number().int().positive().default(20),
    /** Outcomes kept per cluster (older ones are dropped; they no longer affect any rule). Default 50. */
    historyLimit: z.number().int().positive().default(50),
    /** Shortest pause between self-play cycles, in seconds. Default 5. */
    minimumCooldownSeconds: z.number().positive().default(5),
    /** Longest pause between self-play cycles, in seconds. Default 180. */
    maximumCooldownSeconds: z.number().positive().default(180),
  })
  .refine((settings) => settings.historyLimit >= Math.max(settings.saturationWindow, settings.brittlenessWindow), {
    message: "historyLimit must hold the saturation and brittleness windows",
    path: ["historyLimit"],
  })
  .refine((settings) => settings.maximumCooldownSeconds >= settings.minimumCooldownSeconds, {
    message: "maximumCooldownSeconds must be at least minimumCooldownSeconds",
    path: ["maximumCooldownSeconds"],
  });
export type FrontierSettings = z.infer<typeof FrontierSettingsSchema>;
export type FrontierSettingsInput = z.input<typeof FrontierSettingsSchema>;
