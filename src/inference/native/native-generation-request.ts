import { z } from "zod";
import { FinishReasonSchema } from "../../core/schemas/step.js";
import { SamplerSettingsSchema } from "../../core/schemas/sampler-settings.js";

const TokenIdsSchema = z.union([
  z.custom<Int32Array>((value) => value instanceof Int32Array, "an Int32Array"),
  z.array(z.number().int().min(0)),
]);

/** One sequence for NativeGenerationEngine: prompt token ids in, completion token ids and logprobs out. */
export const NativeGenerationRequestSchema = z.object({
  promptTokenIds: TokenIdsSchema.refine((tokens) => tokens.length > 0, "at least one token"),
  /** Upper bound on completion tokens; the context's room after the prompt bounds it too. */
  maxTokens: z.number().int().positive(),
  sampler: SamplerSettingsSchema.pick({ temperature: true, topK: true, topP: true, minP: true, seed: true }),
  /** GBNF grammar the completion must follow; the recorded logprobs are under its mask. */
  grammar: z.object({ gbnf: z.string().min(1), root: z.string().min(1).default("root") }).optional(),
  /** Token id → value added to its logit before the grammar mask and the temperature. */
  logitBias: z.map(z.number().int().min(0), z.number().refine(Number.isFinite, "must be finite")).optional(),
  /** Strings that end the completion at the token completing one (the token is kept). */
  stop: z.array(z.string().min(1)).default([]),
});
export type NativeGenerationRequest = z.input<typeof NativeGenerationRequestSchema>;

export const NativeGenerationResultSchema = z.object({
  completionTokenIds: z.custom<Int32Array>((value) => value instanceof Int32Array, "an Int32Array"),
  /** Log-probability of each completion token under the distribution it was drawn from; 0 under greedy decoding. */
  completionLogprobs: z.custom<Float64Array>((value) => value instanceof Float64Array, "a Float64Array"),
  /** "stop": an end-of-generation token (kept) or a stop string; "length": maxTokens or the context; "abort": the signal. */
  finishReason: FinishReasonSchema,
});
export type NativeGenerationResult = z.infer<typeof NativeGenerationResultSchema>;
