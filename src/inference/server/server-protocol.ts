import type { FinishReason } from "../../core/schemas/step.js";
import type { SamplerSettings } from "../../core/schemas/sampler-settings.js";

/** One completion as selfplay asks a server for it: the prompt already tokenised, the sampler chain spelled out. */
export interface ServerCompletionRequest {
  /** The name the server routes by: the served model, or the policy version's adapter or preset. */
  model: string;
  promptTokenIds: readonly number[];
  /** Tokens to generate at most (the sampler's maxTokens, cut to the context left). */
  maxTokens: number;
  sampler: SamplerSettings;
  /** GBNF text restricting the output, or undefined. */
  grammar?: string;
  /** Token id → bias added to its logit. */
  logitBias?: ReadonlyArray<readonly [number, number]>;
}

/** What a server answered, in selfplay's terms. `logprobs[i]` is undefined where the server gave none for `tokenIds[i]`. */
export interface ServerCompletion {
  tokenIds: number[];
  logprobs: Array<number | undefined>;
  finishReason: FinishReason;
  /** The model name the server says it answered with (checked against the request's). */
  model: string;
}

/** The request and response fields of one kind of server. */
export interface ServerProtocol {
  readonly completionPath: string;
  /**
   * A one-token request and how to read the most likely token's logprob from
   * its answer. Asked at two temperatures when the client connects: logprobs
   * of the sampled distribution change with the temperature, raw ones do not.
   */
  topLogprob: { body(request: ServerCompletionRequest): Record<string, unknown>; read(response: unknown): number | undefined };
  /** How a server that returns raw logprobs is started so that it returns the sampled distribution's (the refusal's advice). */
  readonly sampledLogprobsAdvice: string;
  completionBody(request: ServerCompletionRequest): Record<string, unknown>;
  /** Reads a completion response; a response without the fields is an error message (returned, so the caller names the endpoint). */
  readCompletion(response: unknown): ServerCompletion | string;
  /**
   * A body asking for the probability of every token at the next position
   * (after `request.promptTokenIds`) under the request's sampler, and how to
   * read token `tokenId`'s logprob from the answer. llama-server withholds a
   * token's probability while its text is an incomplete UTF-8 sequence, and
   * trims the last ones when a stop string ends the completion; the client
   * asks again for those.
   */
  nextTokenLogprob?: {
    /** Without the request's grammar: it would restart at the position asked about. */
    body(request: ServerCompletionRequest): Record<string, unknown>;
    read(response: unknown, tokenId: number): number | undefined;
  };
}
