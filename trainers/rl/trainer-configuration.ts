import { z } from "zod";
import { LossAggregationSchema } from "../losses/aggregation-weights.js";
import { PolicyLossConfigurationSchema } from "../losses/policy-loss.js";
import { AdamWConfigurationSchema } from "../optimizer/adamw.js";

/** Every knob of a policy update, with the defaults a run gets when it names none. */
export const TrainerConfigurationSchema = z.object({
  /**
   * `reinforce`: one pass of −A·logπ (the advantages carry the baseline).
   * `grpo`: the clipped surrogate over group-normalised advantages, `epochs` passes.
   * `ppo`: the same clipped surrogate, critic-free (group or RLOO advantages from the credit assigner).
   */
  algorithm: z.enum(["reinforce", "grpo", "ppo"]).default("grpo"),
  /** Passes over the batch per update (1 for reinforce whatever is set). Default 1. */
  epochs: z.number().int().min(1).default(1),
  /** Records per minibatch (one optimizer step each). Default 64. */
  minibatchSize: z.number().int().min(1).default(64),
  aggregation: LossAggregationSchema.default("token-mean"),
  /** The constant length of `sequence-mean-token-sum` (Dr. GRPO); default the longest completion of the batch. */
  aggregationLength: z.number().int().min(1).optional(),
  loss: PolicyLossConfigurationSchema.default(PolicyLossConfigurationSchema.parse({})),
  optimizer: AdamWConfigurationSchema.default(AdamWConfigurationSchema.parse({})),
  /** Global gradient-norm bound. Default 1. */
  maxGradientNorm: z.number().positive().default(1),
});
export type TrainerConfiguration = z.infer<typeof TrainerConfigurationSchema>;
export type TrainerConfigurationInput = z.input<typeof TrainerConfigurationSchema>;
