import { z } from "zod";
import { JsonObjectSchema } from "../json.js";
import { RolloutSchema } from "./rollout.js";
import { StructuredOutputsSchema, emptyStructuredOutputs } from "../structured/structured-output-stats.js";

/** Reward of each role that acted in a rollout. */
export const RewardsSchema = z.record(z.string(), z.number().refine(Number.isFinite, "must be finite"));
export type Rewards = z.infer<typeof RewardsSchema>;

export const FailureStageSchema = z.enum(["artifact", "rollout", "finalize", "score"]);
export type FailureStage = z.infer<typeof FailureStageSchema>;

/** An error as an outcome records it (`toErrorRecord`). */
const OutcomeErrorSchema = z.object({ name: z.string(), message: z.string(), details: JsonObjectSchema.optional() });

/**
 * How a rollout ended: `scored`; `failed` (its episode or verifier threw: counted in the step's failures and its
 * stopping rules); or `dropped` by its environment on purpose (a `DroppedRolloutError`, its `reason`: a held-out
 * problem…), which is never trained on and never counted as a failure. Neither failed nor dropped has rewards.
 */
export const OutcomeSchema = z.discriminatedUnion("status", [
  z.object({ status: z.literal("scored") }),
  z.object({ status: z.literal("failed"), stage: FailureStageSchema, error: OutcomeErrorSchema }),
  z.object({ status: z.literal("dropped"), stage: FailureStageSchema, reason: OutcomeErrorSchema }),
]);
export type Outcome = z.infer<typeof OutcomeSchema>;

export interface GenerateResult {
  rollout: z.infer<typeof RolloutSchema>;
  /** Empty unless the outcome is `scored`: a failed or dropped rollout is never trained on. */
  rewards: Rewards;
  outcome: Outcome;
  /** What the verifier reports besides rewards (a judge's verdict, a pass rate…). */
  scoreDetails: z.infer<typeof JsonObjectSchema>;
  /** Calls made to a judge while scoring; they are never Steps. */
  judgeCalls: number;
  /** Schema-bound calls of this rollout (not its children): validity on the first try and resamples. */
  structuredOutputs: z.infer<typeof StructuredOutputsSchema>;
  /** Results of sub-episodes, in the order they were requested. */
  children: GenerateResult[];
}

/** A rollout, its rewards and the results of its sub-episodes. */
export const GenerateResultSchema: z.ZodType<GenerateResult> = z.lazy(() =>
  z.object({
    rollout: RolloutSchema,
    rewards: RewardsSchema,
    outcome: OutcomeSchema,
    scoreDetails: JsonObjectSchema,
    judgeCalls: z.number().int().min(0),
    structuredOutputs: StructuredOutputsSchema.default(emptyStructuredOutputs),
    children: z.array(GenerateResultSchema),
  }),
);
