import { z } from "zod";

/** Every setting of PRM training, with its default. */
export const PrmTrainingConfigurationSchema = z.object({
  /** Width of the hidden layer (ignored when fine-tuning: the PRM keeps its shape). Default 64. */
  hiddenDimensions: z.number().int().positive().default(64),
  /** The hidden layer's nonlinearity (ignored when fine-tuning). Default relu. */
  activation: z.enum(["relu", "tanh"]).default("relu"),
  /** Passes over the training split. Default 20. */
  epochs: z.number().int().min(0).default(20),
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
