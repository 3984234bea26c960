import { z } from "zod";

/**
 * Every setting of PRM training, with its default. The defaults (with 256
 * hashed n-gram buckets) were chosen on labels of short runs and then held on
 * the labels of three 150-step `selfplay train` runs, outcome and Monte-Carlo
 * (K = 8) alike: held-out AUC 0.832 and 0.840 against the per-cluster prior's
 * 0.811 and 0.815. A wider PRM (1,024 buckets, 64 hidden, 20 epochs) fits the
 * training tasks and fell below the prior on held-out ones (0.765).
 */
export const PrmTrainingConfigurationSchema = z.strictObject({
  /** Width of the hidden layer (ignored when fine-tuning: the PRM keeps its shape). Default 16. */
  hiddenDimensions: z.number().int().positive().default(16),
  /** The hidden layer's nonlinearity (ignored when fine-tuning). Default relu. */
  activation: z.enum(["relu", "tanh"]).default("relu"),
  /** Passes over the training split. Default 10. */
  epochs: z.number().int().min(0).default(10),
  /** States per AdamW step. Default 64. */
  batchSize: z.number().int().positive().default(64),
  /** AdamW learning rate. Default 3e-3. */
  learningRate: z.number().positive().default(3e-3),
  /** AdamW decoupled weight decay. Default 1e-4. */
  weightDecay: z.number().min(0).default(1e-4),
  /** Share of tasks held out for the metrics, by hash of the task text. Default 0.2. */
  heldOutFraction: z.number().min(0).max(1).default(0.2),
  /** Seeds the initial weights and the shuffling. Default 0. */
  seed: z.number().int().min(0).default(0),
});
export type PrmTrainingConfiguration = z.infer<typeof PrmTrainingConfigurationSchema>;
export type PrmTrainingConfigurationInput = z.input<typeof PrmTrainingConfigurationSchema>;
