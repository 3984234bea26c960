import type { RandomStream } from "../random/random-stream.js";
import type { Constraint, LogitBias } from "../schemas/constraint.js";
import type { EpisodeRequest } from "../schemas/episode-request.js";
import type { GenerateResult } from "../schemas/generate-result.js";
import type { Messages } from "../schemas/message.js";
import type { ModelResponse } from "../schemas/model-response.js";
import type { SamplerOverrides } from "../schemas/sampler-settings.js";
import type { z } from "zod";
import type { JudgeCallOptions, StructuredJudgeOptions, StructuredJudgeResponse } from "../verifiers/verifier.js";

export interface CallModelOptions {
  /** Per-call sampler changes on top of the role's (an escape strategy raising temperature, say). */
  sampler?: SamplerOverrides;
  /** Restrict the output to a JSON schema or a grammar. */
  constraint?: Constraint;
}

export interface StructuredCallOptions {
  /** Per-call sampler changes on top of the role's. */
  sampler?: SamplerOverrides;
  /** Steers the constrained model (used only when the client constrains to the schema); see LogitBiasSchema. */
  logitBias?: LogitBias;
  /** Attempts in all, the first included (default 4). Each attempt is a Step. */
  maxAttempts?: number;
  /** Turns the text into the value to validate (default: the first JSON object or array in it). */
  parse?: (text: string) => unknown;
}

/** A schema-validated value, the model call that produced it, and the attempts it took. */
export interface StructuredModelResponse<Value> {
  value: Value;
  response: ModelResponse;
  attempts: number;
}

/**
 * What the arena gives an episode while it runs. Model calls made here are a
 * Role's and become Steps; sub-episodes run through the arena and become the
 * result's `children`.
 */
export interface EpisodeContext {
  /** The rollout's deterministic id, e.g. `ep7` or `ep7.2` for a sub-episode. */
  readonly rolloutId: string;
  readonly signal: AbortSignal | undefined;
  /** A seeded stream for this episode and purpose: same run seed ⇒ same numbers. */
  random(purpose: string): RandomStream;
  /** Calls the policy as `roleId`, prepending the role's system prompt, and records the Step. */
  callModel(roleId: string, messages: Messages, options?: CallModelOptions): Promise<ModelResponse>;
  /**
   * Calls the policy as `roleId` for a value of `schema`: constrained to the
   * schema's JSON grammar when the client supports it, parsed, validated and
   * resampled (same prompt, new seed) until valid or out of attempts, which
   * throws StructuredOutputError. Every attempt is a Step flagged `structured`.
   */
  callModelForObject<Schema extends z.ZodType>(
    roleId: string,
    messages: Messages,
    schema: Schema,
    options?: StructuredCallOptions,
  ): Promise<StructuredModelResponse<z.output<Schema>>>;
  /** Asks the judge model during the rollout (a critic, say); never a Step. */
  judge(messages: Messages, options?: JudgeCallOptions): Promise<string>;
  /** `judge` for a value of `schema`, with the same constrain-validate-resample loop as `callModelForObject`. */
  judgeObject<Schema extends z.ZodType>(
    messages: Messages,
    schema: Schema,
    options?: StructuredJudgeOptions,
  ): Promise<StructuredJudgeResponse<z.output<Schema>>>;
  /**
   * Runs sub-episodes through the arena, concurrently, and returns their results
   * in request order. Requests without a groupId share one group per episode type.
   */
  runSubEpisodes(requests: readonly EpisodeRequest[]): Promise<GenerateResult[]>;
}
