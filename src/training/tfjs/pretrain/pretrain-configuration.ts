import { z } from "zod";
import { SeedSchema } from "../../../core/schemas/sampler-settings.js";

/** Supervised pretraining of a project-made model on the arithmetic corpus. */
export const PretrainConfigurationSchema = z.strictObject({
  /** Optimizer steps. */
  steps: z.number().int().min(1).default(3000),
  /** Examples per step. */
  batchSize: z.number().int().min(1).default(32),
  /** Peak learning rate, reached after `warmupSteps` and decayed to a tenth by a cosine. */
  learningRate: z.number().positive().default(3e-3),
  warmupSteps: z.number().int().min(0).default(100),
  weightDecay: z.number().min(0).default(0.01),
  maxGradientNorm: z.number().positive().default(1),
  seed: SeedSchema.default(0),
  /**
   * End after this many steps while the learning-rate schedule still spans
   * `steps` (a budgeted run: the state at step k of the longer schedule).
   */
  stopAfter: z.number().int().min(1).optional(),
});
export type PretrainConfiguration = z.infer<typeof PretrainConfigurationSchema>;

/** The step a run of `configuration` ends after. */
export function lastPretrainStep(configuration: PretrainConfiguration): number {
  return Math.min(configuration.steps, configuration.stopAfter ?? configuration.steps);
}

/** Learning rate at `step` (from 0): linear warm-up, then cosine decay to a tenth of the peak. */
export function learningRateAt(step: number, configuration: PretrainConfiguration): number {
  const { learningRate, warmupSteps, steps } = configuration;
  if (step < warmupSteps) return (learningRate * (step + 1)) / warmupSteps;
  const progress = Math.min(1, (step - warmupSteps) / Math.max(1, steps - warmupSteps));
  return learningRate * (0.1 + 0.9 * 0.5 * (1 + Math.cos(Math.PI * progress)));
}
