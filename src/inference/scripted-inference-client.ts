import { ScriptExhaustedError } from "./errors/index.js";
import type {
  GenerateOptions,
  GenerationOutput,
  GenerationRequest,
  InferenceCapabilities,
  InferenceClient,
  WeightUpdate,
} from "../core/inference-client.js";
import type { FinishReason } from "../core/schemas/step.js";
import { RandomStream } from "../core/random/random-stream.js";
import { BYTE_TOKEN_OFFSET, bytesToTokenIds } from "./byte-tokens.js";
import { conversationKey } from "./conversation-key.js";

/** A reply: fixed text, or a function of the request and a stream seeded by (sampler seed, conversation). */
export type ScriptedReply = string | ((request: GenerationRequest, random: RandomStream) => string);

export interface ScriptedRule {
  /** Matches a conversation: a RegExp tested against its `role: content` key, or a predicate. */
  when: RegExp | ((request: GenerationRequest) => boolean);
  reply: ScriptedReply;
}

export interface ScriptedInferenceClientOptions {
  /** Exact conversations (keyed by `conversationKey(messages)`) and their replies; checked first. */
  conversations?: Record<string, ScriptedReply>;
  /** Checked in order after `conversations`; the first match replies. */
  rules?: readonly ScriptedRule[];
  /** Overrides of the declared capabilities (default: token ids, exact logprobs, 16 parallel sequences). */
  capabilities?: Partial<InferenceCapabilities>;
}

/**
 * A deterministic InferenceClient for tests and dry runs. Replies are looked up
 * by conversation; tokens are UTF-8 bytes + 3 (the byte vocabulary of
 * project-made models); logprobs are pseudo-random but fixed by the sampler
 * seed and conversation, 0 when greedy. It honours maxTokens and stop strings.
 * With `prefixTokenIds` the reply is the continuation: a reply function reads
 * the prefix from the request, and the prefix joins the prompt's token ids.
 * A conversation the script does not cover is an error, never a silent default.
 */
export class ScriptedInferenceClient implements InferenceClient {
  readonly capabilities: InferenceCapabilities;
  private version = 0;
  private calls: GenerationRequest[] = [];

  constructor(private readonly options: ScriptedInferenceClientOptions) {
    this.capabilities = {
      tokenIds: true,
      exactLogprobs: true,
      grammars: false,
      jsonSchema: false,
      lora: false,
      parallelSequences: 16,
      prefixTokens: true,
      ...options.capabilities,
    };
  }

  get policyVersion(): number {
    return this.version;
  }

  /** Every request served so far, in order: lets tests check what the model was asked. */
  get requests(): readonly GenerationRequest[] {
    return this.calls;
  }

  async generate(requests: readonly GenerationRequest[], options: GenerateOptions = {}): Promise<GenerationOutput[]> {
    this.calls.push(...requests);
    return requests.map((request) => this.complete(request, options.signal?.aborted ?? false));
  }

  async swapWeights(update: WeightUpdate): Promise<void> {
    this.version = update.policyVersion;
  }

  async dispose(): Promise<void> {}

  private complete(request: GenerationRequest, aborted: boolean): GenerationOutput {
    const key = conversationKey(request.messages);
    const random = new RandomStream(`${request.sampler.seed}\u241f${key}`);
    const reply = this.replyFor(request, key);
    let text = aborted ? "" : typeof reply === "string" ? reply : reply(request, random);
    let finishReason: FinishReason = aborted ? "abort" : "stop";
    const stopAt = Math.min(...request.sampler.stop.map((stop) => text.indexOf(stop)).filter((index) => index >= 0));
    if (Number.isFinite(stopAt)) text = text.slice(0, stopAt);
    let completionTokenIds = bytesToTokenIds(text);
    if (completionTokenIds.length > request.sampler.maxTokens) {
      completionTokenIds = completionTokenIds.slice(0, request.sampler.maxTokens);
      text = new TextDecoder().decode(Uint8Array.from(completionTokenIds, (id) => id - BYTE_TOKEN_OFFSET));
      finishReason = "length";
    }
    const completionLogprobs = Float64Array.from(completionTokenIds, () =>
      request.sampler.temperature === 0 ? 0 : Math.log(0.05 + 0.95 * random.next()),
    );
    return {
      text,
      promptTokenIds: Int32Array.from([...bytesToTokenIds(key), ...(request.prefixTokenIds ?? [])]),
      completionTokenIds,
      completionLogprobs,
      finishReason,
      constrained: request.constraint !== null,
      policyVersion: this.version,
    };
  }

  private replyFor(request: GenerationRequest, key: string): ScriptedReply {
    const exact = this.options.conversations?.[key];
    if (exact !== undefined) return exact;
    for (const rule of this.options.rules ?? []) {
      if (rule.when instanceof RegExp ? rule.when.test(key) : rule.when(request)) return rule.reply;
    }
    throw new ScriptExhaustedError(
      `the script has no reply for this conversation; add it to \`conversations\` or a matching rule:\n${key.slice(0, 500)}`,
    );
  }
}
