import type { ResolvedDevice } from "../device/resolve-device.js";
import type { Token } from "node-llama-cpp";
import type { GenerationRequest } from "../../core/inference-client.js";
import type { FinishReason } from "../../core/schemas/step.js";

/** One completion to decode: the tokenised prompt and the request it came from. */
export interface DecodeJob {
  promptTokens: Token[];
  request: GenerationRequest;
  /** `maxTokens` cut to the room the context leaves after the prompt. */
  tokenBudget: number;
}

/** A decoded completion; an end-of-generation token, when the model chose one, is its last token. */
export interface DecodedCompletion {
  completionTokenIds: Int32Array;
  completionLogprobs: Float64Array;
  finishReason: FinishReason;
}

/**
 * Decodes the completions of one served policy: node-llama-cpp's own path, or
 * selfplay's native loop. Both record the log-probability of each sampled token
 * under the distribution it was drawn from, and stop at the same places.
 */
export interface PolicyDecoder {
  /** Tokens of context per sequence, as llama.cpp made it: a prompt must be shorter. */
  readonly contextSize: number;
  /** Where the model runs, and why. */
  readonly device: ResolvedDevice;
  /** Completions in job order. */
  decode(jobs: readonly DecodeJob[], signal: AbortSignal | undefined): Promise<DecodedCompletion[]>;
  dispose(): Promise<void>;
}
