import { z } from "zod";
import { parseInput } from "../core/parse-input.js";
import { FreeFormSettingsSchema } from "./domains/free-form-settings.js";

const share = z.number().min(0).max(1);

/**
 * Every knob of the curriculum, validated strictly: a misspelt key is an
 * error naming it and the nearest valid one (exit 2 from the CLI).
 */
export const RiddleConfigSchema = z.strictObject({
  /** `arithmetic`: code-checked riddles the bundled base can play; `free-form`: any riddle, graded by an LLM critic. */
  domain: z.enum(["arithmetic", "free-form"]).default("arithmetic"),
  /** The riddler's reward: exp(−½((p − μ)/σ)²) of the solve rate p. */
  reward: z.strictObject({ targetSolveRate: share.default(0.5), sigma: z.number().positive().max(1).default(0.1) }).default({ targetSolveRate: 0.5, sigma: 0.1 }),
  /** The band a riddle "hits" (reported, and what early stopping tests against). */
  band: z.strictObject({ low: share.default(0.3), high: share.default(0.7) }).default({ low: 0.3, high: 0.7 }),
  solvers: z.int().min(1).max(100).default(10),
  /** Solvers run in waves of this size; early stopping is tested after each wave. */
  waveSize: z.int().min(1).max(100).default(4),
  earlyStop: z
    .strictObject({
      enabled: z.boolean().default(true),
      /**
       * z of the two-sided Wilson score interval; stop once it lies wholly
       * outside the band. 1.28 (an 80% interval, 90% on the side that stops)
       * stops a 4-solver wave at 0/4 or 4/4 against the default 0.3–0.7 band;
       * 1.96 could stop 10 solvers only at 0/9 or 9/9, i.e. never in waves of 5.
       */
      wilsonZ: z.number().positive().max(5).default(1.28),
    })
    .default({ enabled: true, wilsonZ: 1.28 }),
  /** Riddles regenerated after the critic rejects one, per episode. */
  validityRetries: z.int().min(0).max(10).default(2),
  maxPartnersPerSolver: z.int().min(0).max(5).default(1),
  maxTotalPartners: z.int().min(0).max(100).default(3),
  duplicates: z
    .strictObject({
      /** Character-trigram Jaccard similarity at or above which a riddle is a near-duplicate. */
      threshold: share.default(0.8),
      /** Recent riddles compared against. */
      window: z.int().min(1).max(10_000).default(50),
      /** Subtracted from a near-duplicate riddle's reward. */
      penalty: z.number().min(0).max(2).default(0.5),
    })
    .default({ threshold: 0.8, window: 50, penalty: 0.5 }),
  memory: z
    .strictObject({
      /** Episodes between compactions of the memories' distilled sections. */
      compactEvery: z.int().min(1).max(10_000).default(20),
      /** Recent episodes whose one-line excerpts go into a prompt. */
      excerptEpisodes: z.int().min(0).max(50).default(5),
    })
    .default({ compactEvery: 20, excerptEpisodes: 5 }),
  /** Grade each solver as it finishes (a "solved so far" count); otherwise after each wave. */
  streamGradeEachSolver: z.boolean().default(true),
  /** Every this many solvers the actor summarises the run so far (0: never). */
  statusEverySolvers: z.int().min(0).max(100).default(0),
  /**
   * The free-form domain's settings: attempts, each role's and the critic's
   * token budgets, worked exchanges for a small chat model (FreeFormSettingsSchema).
   * Default: its defaults.
   */
  freeForm: FreeFormSettingsSchema.optional(),
});
export type RiddleConfig = z.infer<typeof RiddleConfigSchema>;
export type RiddleConfigInput = z.input<typeof RiddleConfigSchema>;

/** Validates a curriculum config; `source` names the file or flag in errors. */
export function parseRiddleConfig(value: unknown, source = "config"): RiddleConfig {
  return parseInput(RiddleConfigSchema, value, { fieldName: (path) => `${source}: ${path.map(String).join(".") || "(root)"}` });
}
