import { z } from "zod";
import { RiddleConfigSchema } from "../../riddles/riddle-config.js";

/**
 * The options of the `riddles` environment (`environment` in the training
 * config), strict: every field of the curriculum config (RiddleConfig:
 * domain, reward, band, solvers, waveSize, earlyStop, validityRetries,
 * partner caps, duplicates, memory …) plus how a step is planned and how the
 * riddler is evaluated.
 */
export const RiddlesEnvironmentOptionsSchema = z.strictObject({
  ...RiddleConfigSchema.shape,
  /** Riddle prompts per step (each played `groupSize` times). Default 4. */
  episodesPerStep: z.int().min(1).max(1000).default(4),
  /**
   * Riddle episodes per prompt: the riddler's GRPO group, the same curriculum
   * state played several times so its drafts are compared with each other.
   * 1 leaves the riddler a per-role running baseline. Default 4.
   */
  groupSize: z.int().min(1).max(64).default(4),
  /**
   * Serve the solvers (and partners) from the base model as it was
   * (`frozenRoles`), so only the riddler learns and the solve rate it aims at
   * does not move under it as the shared weights learn to solve. The held-out
   * evaluation still has the current weights solve. Default false (riddler
   * and solvers trainable).
   */
  frozenSolvers: z.boolean().default(false),
  /** Sampling temperature of the riddler (solvers use their profiles' temperatures). Default 1. */
  temperature: z.number().min(0).max(5).default(1),
  /** Riddle episodes per evaluation, played from `evaluationSeed` with no recent riddles. Default 32. */
  evaluateEpisodes: z.int().min(1).max(10_000).default(32),
  /** Arena seed of the evaluation's episodes (held out: training draws from the run's seed). Default 1000003. */
  evaluationSeed: z.int().min(0).max(4_294_967_295).default(1_000_003),
  /**
   * Positions a sequence of the engine holds (prompt and completion): the
   * free-form domain's longest call is its riddler's, the worked exchange and
   * the draft. Default: the model file's context, capped by memory (8,192 for
   * SmolLM2, whose adapter sync then takes seconds a step).
   */
  contextSize: z.int().min(1).optional(),
});
export type RiddlesEnvironmentOptions = z.infer<typeof RiddlesEnvironmentOptionsSchema>;
export type RiddlesEnvironmentOptionsInput = z.input<typeof RiddlesEnvironmentOptionsSchema>;
