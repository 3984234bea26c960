import { z } from "zod";

/** The policy-gradient loss every backend minimises, as configured. */
export const PolicyLossConfigurationSchema = z.strictObject({
  /**
   * `reinforce`: −A·logπ (REINFORCE with the credit assigner's baseline).
   * `clipped`: PPO's clipped surrogate against the trainer's own old logprobs
   * (GRPO and critic-free PPO are this loss with group or RLOO advantages).
   */
  objective: z.enum(["reinforce", "clipped"]).default("clipped"),
  /** Lower clip: ratios below 1 − ε stop pushing down. Default 0.2. */
  clipLow: z.number().min(0).max(1).default(0.2),
  /** Upper clip (DAPO's clip-higher raises it, e.g. 0.28). Default 0.2. */
  clipHigh: z.number().min(0).default(0.2),
  /**
   * Cap C of the truncated importance weight min(π_old/π_engine, C) that
   * corrects for the engine sampling from slightly other numbers than the
   * trainer computes (as verl does). Default 2.
   */
  importanceCap: z.number().min(1).default(2),
  /** β of the k3 KL penalty to the frozen reference policy; 0 turns it off. Default 0. */
  klCoefficient: z.number().min(0).default(0),
  /** Weight of the entropy bonus; 0 turns it off. Default 0. */
  entropyCoefficient: z.number().min(0).default(0),
});
export type PolicyLossConfiguration = z.infer<typeof PolicyLossConfigurationSchema>;
