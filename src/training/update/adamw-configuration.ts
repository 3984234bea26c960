import { z } from "zod";

/** AdamW's hyper-parameters, the same for the tfjs optimizer and the ggml graph's. */
export const AdamWConfigurationSchema = z.strictObject({
  /** Step size. Default 1e-4 (the arithmetic task sets 3e-4). */
  learningRate: z.number().positive().default(1e-4),
  /** Decay of the first-moment (mean) estimate. Default 0.9. */
  beta1: z.number().min(0).lt(1).default(0.9),
  /** Decay of the second-moment (uncentred variance) estimate. Default 0.999. */
  beta2: z.number().min(0).lt(1).default(0.999),
  /** Added to the root of the second moment before dividing. Default 1e-8. */
  epsilon: z.number().positive().default(1e-8),
  /** Decoupled weight decay (Loshchilov & Hutter), applied to the weights, not through the gradient. Default 0.01. */
  weightDecay: z.number().min(0).default(0.01),
});
export type AdamWConfiguration = z.infer<typeof AdamWConfigurationSchema>;
