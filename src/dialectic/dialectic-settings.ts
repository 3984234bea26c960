import { z } from "zod";

const Fraction = z.number().min(0).max(1);

/** How the proposer/critic loop runs and when it stops. Every field has the specification's default. */
export const DialecticSettingsSchema = z
  .strictObject({
    /** Rounds (one proposal, one critique each) before the loop stops with `max_rounds`. Default 5. */
    maxRounds: z.number().int().min(1).max(100).default(5),
    /** Converged when the critique approves and its score is at least this. Default 0.85. */
    approvalThreshold: Fraction.default(0.85),
    /** Stalled when no score rose by this much across the window. Default 0.05. */
    improvementThreshold: Fraction.default(0.05),
    /** Rounds looked at for oscillation and stalling, the latest included. Default 3. */
    oscillationWindow: z.number().int().min(2).default(3),
    /** Two proposals this similar (`textSimilarity`, 0–1) are the same proposal reworded. Default 0.9. */
    similarityThreshold: z.number().gt(0).max(1).default(0.9),
    /** Two issues this similar are the same issue. Default 0.8. */
    issueSimilarityThreshold: z.number().gt(0).max(1).default(0.8),
    /** A perfection loop: window scores going back and forth within a band this wide. Default 0.05. */
    perfectionBand: Fraction.default(0.05),
    /**
     * true (default): the adaptive engine, which meets oscillation with escape
     * strategies and returns the best proposal when it gives up. false: the
     * basic engine, which stops at the first oscillation and returns the latest.
     */
    adaptive: z.boolean().default(true),
    /** Proposer temperature of the first round. Default 0.7. */
    baseTemperature: z.number().min(0).default(0.7),
    /** Added by each raise-temperature escape. Default 0.1. */
    temperatureStep: z.number().min(0).default(0.1),
    /** Raise-temperature escapes stop here. Default 1. */
    maxTemperature: z.number().min(0).default(1),
  })
  .refine((settings) => settings.maxTemperature >= settings.baseTemperature, {
    message: "maxTemperature must be at least baseTemperature",
    path: ["maxTemperature"],
  });
export type DialecticSettings = z.infer<typeof DialecticSettingsSchema>;
export type DialecticSettingsInput = z.input<typeof DialecticSettingsSchema>;
