import type { z } from "zod";
import type { LogitBias } from "../core/schemas/constraint.js";
import type { Messages } from "../core/schemas/message.js";
import type { SamplerOverrides } from "../core/schemas/sampler-settings.js";
import type { StructuredJudgeOptions } from "../core/verifiers/verifier.js";
import type { Critique } from "./critique.js";
import { parseCritique } from "./parse-critique.js";

/**
 * Asks a model for a value of `schema`: the judge (`context.judgeObject`,
 * never a Step) or, when the critic is trained, the critic Role. Either way
 * the output is constrained when the client supports JSON schemas, validated
 * and resampled within `maxAttempts`.
 */
export type StructuredAsk = <Schema extends z.ZodType>(
  messages: Messages,
  schema: Schema,
  options: StructuredJudgeOptions,
) => Promise<{ value: z.output<Schema>; text: string }>;

/** Judges one proposal. Critics hold configuration only; the model they ask is passed in. */
export interface Critic {
  /** Names the critic in round records, e.g. `critic` or `correctness`. */
  readonly id: string;
  evaluate(ask: StructuredAsk, task: string, proposal: string): Promise<Critique>;
}

/** What every critic can be told. */
export interface CriticOptions {
  /** Names the critic in round records. Default: its focus, or `critic`. */
  id?: string;
  /** What the critic looks at hardest, e.g. `correctness`; an ensemble's critics differ here. Default: everything. */
  focus?: string;
  /**
   * Sampler of every attempt. Default temperature 0.3 (a resample must be able
   * to differ) and 1024 tokens (a critique at its bounds is about 900 bytes).
   */
  sampler?: SamplerOverrides;
  /** Attempts per critique, the first included. Default 4. */
  maxAttempts?: number;
  /** Steers a constrained critic (e.g. toward closing strings early); used only when its client constrains to the schema. */
  logitBias?: LogitBias;
  /** Turns the critic's text into the value to validate. Default `parseCritique` (tolerant); `extractJson` accepts JSON only. */
  parse?: (text: string) => unknown;
}

export const DEFAULT_CRITIC_SAMPLER: SamplerOverrides = { temperature: 0.3, maxTokens: 1024 };

/** The options of a critic's structured call, defaults filled in. */
export function criticCallOptions(options: CriticOptions): StructuredJudgeOptions {
  return {
    sampler: { ...DEFAULT_CRITIC_SAMPLER, ...options.sampler },
    maxAttempts: options.maxAttempts ?? 4,
    parse: options.parse ?? parseCritique,
    ...(options.logitBias && { logitBias: options.logitBias }),
  };
}
