import { z } from "zod";
import { LossAggregationSchema } from "../update/aggregation-weights.js";
import { PolicyLossConfigurationSchema } from "../update/policy-loss-configuration.js";
import { AdamWConfigurationSchema } from "../update/adamw-configuration.js";

/** Classic PPO's critic: a value head on the final hidden state, GAE, a clipped value loss. */
export const CriticConfigurationSchema = z.strictObject({
  /** γ of GAE: 1 (the default) for episodes that end, so early tokens are not discounted. */
  discount: z.number().min(0).max(1).default(1),
  /** λ of GAE, from 0 (one-step TD) to 1 (Monte Carlo return minus value). Default 0.95. */
  lambda: z.number().min(0).max(1).default(0.95),
  /** ε of the clipped value loss, in reward units: a value moves at most this far from V_old per update. Default 0.2. */
  valueClip: z.number().positive().default(0.2),
  /** Weight of the value loss next to the policy loss; its gradient also reaches the shared trunk. Default 0.1. */
  valueCoefficient: z.number().min(0).default(0.1),
  /** Normalise the GAE advantages to mean 0, deviation 1 over the batch's tokens. Default true. */
  normaliseAdvantages: z.boolean().default(true),
});
export type CriticConfiguration = z.infer<typeof CriticConfigurationSchema>;

/** Every knob of a policy update, with the defaults a run gets when it names none. */
export const TrainerConfigurationSchema = z.strictObject({
  /**
   * `reinforce`: one pass of −A·logπ (the advantages carry the baseline).
   * `grpo`: the clipped surrogate over group-normalised advantages, `epochs` passes.
   * `ppo`: the same clipped surrogate, critic-free (group or RLOO advantages from the credit assigner).
   * `ppo-critic`: classic PPO: advantages by GAE from a value head (`trainOnBatch`'s
   * `valueHead`) over each role's Steps in a rollout, ignoring the records' own
   * advantages; the clipped value loss is added with `critic.valueCoefficient`.
   */
  algorithm: z.enum(["reinforce", "grpo", "ppo", "ppo-critic"]).default("grpo"),
  /** Passes over the batch per update (1 for reinforce whatever is set). Default 1. */
  epochs: z.number().int().min(1).default(1),
  /** Records per minibatch (one optimizer step each). Default 64. */
  minibatchSize: z.number().int().min(1).default(64),
  /** How per-token losses are averaged: over all tokens (`token-mean`, DAPO), per sequence then over sequences (`sequence-mean-token-mean`, GRPO's paper) or summed per sequence over a constant length (`sequence-mean-token-sum`, Dr. GRPO). Default `token-mean`. */
  aggregation: LossAggregationSchema.default("token-mean"),
  /** The constant length of `sequence-mean-token-sum` (Dr. GRPO); default the longest completion of the batch. */
  aggregationLength: z.number().int().min(1).optional(),
  loss: PolicyLossConfigurationSchema.default(PolicyLossConfigurationSchema.parse({})),
  /** Used by `ppo-critic` only. */
  critic: CriticConfigurationSchema.default(CriticConfigurationSchema.parse({})),
  optimizer: AdamWConfigurationSchema.default(AdamWConfigurationSchema.parse({})),
  /**
   * Leave records with a zero advantage out of the update (DAPO's dynamic
   * sampling: a group whose members all scored alike teaches nothing, and its
   * forward and backward passes cost as much as any). Applies only when such
   * records add nothing to the loss: no KL or entropy coefficient, not
   * `ppo-critic`. With `token-mean` aggregation the remaining tokens then
   * share the whole step. Default true.
   */
  dropZeroAdvantage: z.boolean().default(true),
  /** Global gradient-norm bound (policy and value head together). Default 1. */
  maxGradientNorm: z.number().positive().default(1),
  /**
   * CPU threads of the update, an integer from 1 to 1024 (the ggml trainer; the tfjs trainer refuses one).
   * Default: every core of the machine (`os.availableParallelism()`) — the update never runs beside the
   * rollouts (`updateThreads`). Speed only: a resumed run may use another count.
   */
  threads: z.number().int().min(1).max(1024).optional(),
});
export type TrainerConfiguration = z.infer<typeof TrainerConfigurationSchema>;
export type TrainerConfigurationInput = z.input<typeof TrainerConfigurationSchema>;
