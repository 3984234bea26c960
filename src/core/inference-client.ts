import { z } from "zod";
import { ConstraintSchema } from "./schemas/constraint.js";
import { MessagesSchema } from "./schemas/message.js";
import { SamplerSettingsSchema } from "./schemas/sampler-settings.js";
import { FinishReasonSchema } from "./schemas/step.js";

/**
 * What a client can do. Callers check these instead of the client's type, and
 * refuse work a client cannot do (e.g. training needs `tokenIds` and `exactLogprobs`).
 */
export const InferenceCapabilitiesSchema = z.object({
  /** Returns the token ids of prompt and completion. */
  tokenIds: z.boolean(),
  /** Logprobs equal the log of the full temperature-scaled distribution (no truncation error). */
  exactLogprobs: z.boolean(),
  /** Accepts `constraint.kind === "grammar"`. */
  grammars: z.boolean(),
  /** Accepts `constraint.kind === "json-schema"`. */
  jsonSchema: z.boolean(),
  /** `swapWeights` accepts a LoRA adapter. */
  lora: z.boolean(),
  /** Sequences one `generate` call decodes together; the arena batches up to this many. */
  parallelSequences: z.number().int().positive(),
  /** Accepts `prefixTokenIds` (continues a completion from its first tokens). Absent means no. */
  prefixTokens: z.boolean().optional(),
  /**
   * Logprobs are of the distribution each token was drawn from (temperature and
   * filters applied), if not bit-exact. False for a server that returns raw
   * logprobs: unfit for training. Absent means yes.
   */
  sampledLogprobs: z.boolean().optional(),
});
export type InferenceCapabilities = z.infer<typeof InferenceCapabilitiesSchema>;

export const GenerationRequestSchema = z.object({
  messages: MessagesSchema.min(1),
  sampler: SamplerSettingsSchema,
  constraint: ConstraintSchema.nullable(),
  /**
   * Token ids the completion already begins with: they follow the prompt as
   * context and the model continues after them (a Monte-Carlo rollout from a
   * partial solution). The output's completion is the continuation alone;
   * `maxTokens` bounds the continuation. Only for clients whose capabilities
   * declare `prefixTokens`.
   */
  prefixTokenIds: z.array(z.number().int().min(0)).optional(),
});
export type GenerationRequest = z.infer<typeof GenerationRequestSchema>;

/** One sequence's output; token ids and logprobs are typed arrays so they cross threads cheaply. */
export const GenerationOutputSchema = z.object({
  text: z.string(),
  promptTokenIds: z.custom<Int32Array>((value) => value instanceof Int32Array, "an Int32Array"),
  completionTokenIds: z.custom<Int32Array>((value) => value instanceof Int32Array, "an Int32Array"),
  /** Log-probability of each completion token under the distribution it was sampled from. */
  completionLogprobs: z.custom<Float64Array>((value) => value instanceof Float64Array, "a Float64Array"),
  finishReason: FinishReasonSchema,
  /** True when a grammar masked the distribution the tokens were sampled from. */
  constrained: z.boolean(),
  policyVersion: z.number().int().min(0),
  /** The server that answered, for clients over a fleet. */
  endpoint: z.string().optional(),
});
export type GenerationOutput = z.infer<typeof GenerationOutputSchema>;

/** A new policy to serve: a full model file, or a LoRA adapter over the current base. */
export const WeightUpdateSchema = z.object({
  policyVersion: z.number().int().positive(),
  modelPath: z.string().min(1).optional(),
  loraPath: z.string().min(1).optional(),
});
export type WeightUpdate = z.infer<typeof WeightUpdateSchema>;

export interface GenerateOptions {
  /** Aborts every sequence of the call; unfinished ones end with finishReason "abort". */
  signal?: AbortSignal;
}

/**
 * A batch-first model endpoint. One `generate` call decodes many sequences
 * together; outputs are returned in request order.
 */
export interface InferenceClient {
  readonly capabilities: InferenceCapabilities;
  /** Version of the weights now served; Steps record it. */
  readonly policyVersion: number;
  generate(requests: readonly GenerationRequest[], options?: GenerateOptions): Promise<GenerationOutput[]>;
  /** Serve new weights; calls issued after the returned promise resolves use them. */
  swapWeights(update: WeightUpdate): Promise<void>;
  dispose(): Promise<void>;
}
