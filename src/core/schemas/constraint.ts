import { z } from "zod";
import { JsonObjectSchema } from "../json.js";

/**
 * Added to the logit of a token before temperature, keyed by the token's text
 * (one token each). Steers a constrained model, e.g. toward closing a string
 * early; the recorded logprobs include it, like the grammar's mask.
 */
export const LogitBiasSchema = z.record(z.string().min(1), z.number().refine(Number.isFinite, "must be finite"));
export type LogitBias = z.infer<typeof LogitBiasSchema>;

/** What restricted a call's output: a JSON schema or a GBNF grammar, with an optional logit bias. */
export const ConstraintSchema = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("json-schema"), schema: JsonObjectSchema, logitBias: LogitBiasSchema.optional() }),
  z.object({ kind: z.literal("grammar"), gbnf: z.string().min(1), logitBias: LogitBiasSchema.optional() }),
]);
export type Constraint = z.infer<typeof ConstraintSchema>;
