import { z } from "zod";
import { GrammarConstraintSchema } from "./grammar-constraint.js";
import { SamplerSettingsSchema } from "./sampler-settings.js";

/**
 * The trainer's unit of data: one Step of a trainable Role with the advantage
 * its CreditAssigner gave it. The trainer never looks at rollout logic.
 */
export const TrainingRecordSchema = z.object({
  rolloutId: z.string(),
  stepIndex: z.number().int().min(0),
  roleId: z.string(),
  groupId: z.string(),
  promptTokenIds: z.array(z.number().int().min(0)),
  completionTokenIds: z.array(z.number().int().min(0)),
  /** The engine's logprob of each completion token (the behaviour policy). */
  logprobs: z.array(z.number()),
  /** Reward the verifier gave the role in this rollout. */
  reward: z.number(),
  /** Advantage the CreditAssigner derived from the reward. */
  advantage: z.number(),
  sampler: SamplerSettingsSchema,
  constrained: z.boolean(),
  /**
   * For a constrained Step: the grammar and logit bias it was sampled under,
   * from which a trainer rebuilds the allowed-token mask at every position.
   * Absent on records written before it existed (they cannot be trained as constrained).
   */
  constraint: GrammarConstraintSchema.optional(),
  policyVersion: z.number().int().min(0),
});
export type TrainingRecord = z.infer<typeof TrainingRecordSchema>;

export const TrainingBatchSchema = z.object({
  batchIndex: z.number().int().min(0),
  records: z.array(TrainingRecordSchema),
  /** Name of the credit assigner that produced the advantages. */
  creditAssigner: z.string(),
  stats: z.object({
    rollouts: z.number().int().min(0),
    failedRollouts: z.number().int().min(0),
    /** Steps left out because their role is not trainable, is served by a frozen policy (no credit), or they carry no tokens. */
    skippedSteps: z.number().int().min(0),
    completionTokens: z.number().int().min(0),
  }),
});
export type TrainingBatch = z.infer<typeof TrainingBatchSchema>;
