import { z } from "zod";
import { ConstraintSchema } from "./constraint.js";
import { MessagesSchema } from "./message.js";
import { SamplerSettingsSchema } from "./sampler-settings.js";

export const FinishReasonSchema = z.enum(["stop", "length", "abort"]);
export type FinishReason = z.infer<typeof FinishReasonSchema>;

const TokenIdsSchema = z.array(z.number().int().min(0));

/**
 * One model call of a Role. Token ids and logprobs are what the inference
 * engine actually saw and sampled; `completionLogprobs[i]` is the log of the
 * probability of `completionTokenIds[i]` under the distribution it was sampled
 * from (temperature-scaled, and masked when `constrained`).
 */
export const StepSchema = z
  .object({
    roleId: z.string().min(1),
    prompt: MessagesSchema,
    completion: MessagesSchema,
    promptTokenIds: TokenIdsSchema,
    completionTokenIds: TokenIdsSchema,
    completionLogprobs: z.array(z.number().max(0)),
    sampler: SamplerSettingsSchema,
    /** The grammar or schema that restricted sampling, or null. */
    constraint: ConstraintSchema.nullable(),
    /** True when logprobs are under a grammar-masked distribution. */
    constrained: z.boolean(),
    finishReason: FinishReasonSchema,
    /** For a schema-bound call: which attempt this was (from 0) and whether it validated. */
    structured: z.object({ attempt: z.number().int().min(0), valid: z.boolean() }).optional(),
    /** Version of the policy weights that produced this Step (0 = the initial model). */
    policyVersion: z.number().int().min(0),
    /** The server that produced it, when the policy runs on a fleet of servers. */
    endpoint: z.string().optional(),
  })
  .refine((step) => step.completionLogprobs.length === step.completionTokenIds.length, {
    message: "completionLogprobs must have one entry per completion token",
    path: ["completionLogprobs"],
  });
export type Step = z.infer<typeof StepSchema>;
