import { z } from "zod";

/** AdamW's hyperparameters, the same for every backend. */
export const AdamWConfigurationSchema = z.strictObject({
  learningRate: z.number().positive().default(1e-4),
  beta1: z.number().min(0).lt(1).default(0.9),
  beta2: z.number().min(0).lt(1).default(0.999),
  epsilon: z.number().positive().default(1e-8),
  /** Decoupled weight decay (Loshchilov & Hutter), applied to the weights, not through the gradient. Default 0.01. */
  weightDecay: z.number().min(0).default(0.01),
});
export type AdamWConfiguration = z.infer<typeof AdamWConfigurationSchema>;
