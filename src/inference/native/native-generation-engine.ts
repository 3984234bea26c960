import { z } from "zod";
import { InvalidInputError } from "../../core/errors/index.js";
import { NativeEngineDisposedError } from "../errors/index.js";
import { parseInput } from "../../core/parse-input.js";
import { DeviceSchema } from "../device/device-option.js";
import type { ResolvedDevice } from "../device/resolve-device.js";
import type { AddonEngine, AddonGenerationRequest } from "./AddonTypes.js";
import { openNativeDevice } from "./open-native-device.js";
import { leaseNativeModel, type NativeModelLease } from "./native-model-lease.js";
import {
  NativeGenerationRequestSchema,
  type NativeGenerationRequest,
  type NativeGenerationResult,
} from "./native-generation-request.js";
import { addonError } from "./addon-error.js";

export const NativeGenerationEngineOptionsSchema = z.strictObject({
  /** GGUF model; engines over the same file share one loaded copy. */
  modelPath: z.string().min(1),
  /** LoRA adapter GGUF applied to this engine's context (check it with validateLoraAdapter first: llama.cpp aborts on some bad files). */
  loraPath: z.string().min(1).optional(),
  /** Sequences decoded together; more requests than this queue and take the next free slot. */
  sequences: z.number().int().min(1).max(256),
  /** Tokens of context per sequence (prompt and completion); llama.cpp rounds it up to a multiple of 256. */
  contextSize: z.number().int().min(16).max(1 << 20),
  /** CPU threads of the decode. */
  threads: z.number().int().min(1).max(1024),
  /** "exact": f32 KV cache and no flash attention; "fast": llama.cpp's defaults (f16 KV cache). */
  mode: z.enum(["exact", "fast"]),
  /** Where the model runs, every layer on it: "auto" (default: the first GPU, else the CPU), "cpu", "cuda[:N]", "vulkan[:N]". */
  device: DeviceSchema.default("auto"),
});
export type NativeGenerationEngineOptions = z.input<typeof NativeGenerationEngineOptionsSchema>;

export interface NativeGenerateOptions {
  /** Ends the call's unfinished requests with finishReason "abort" (their tokens so far are kept). */
  signal?: AbortSignal;
}

/** Ids name calls for abort; unique among in-flight calls of an engine, so a wrapping counter does. */
let nextCallId = 0;

/**
 * selfplay's native generation loop: decode, sampling and logprob capture of
 * every in-flight sequence in C++ on its own thread, with continuous batching.
 * Takes token ids (tokenise with node-llama-cpp) and returns token ids and
 * logprobs as typed arrays. Sampling is deterministic per request seed,
 * whatever else is in the batch and whichever slot the request gets.
 */
export class NativeGenerationEngine {
  private disposed = false;

  private constructor(
    private readonly engine: AddonEngine,
    private readonly lease: NativeModelLease,
    /** The device the model runs on, and why it was chosen. */
    readonly device: ResolvedDevice,
  ) {}

  /** Throws NativeAddonUnavailableError when the addon is not built or does not fit node-llama-cpp's llama.cpp. */
  static async create(options: NativeGenerationEngineOptions): Promise<NativeGenerationEngine> {
    const parsed = parseInput(NativeGenerationEngineOptionsSchema, options);
    const { binding, device } = await openNativeDevice(parsed.device);
    const lease = await leaseNativeModel(binding, parsed.modelPath, device.name).catch((error: unknown) => {
      throw addonError(error, "requests");
    });
    try {
      const engine = await lease.model.createEngine({
        sequences: parsed.sequences,
        contextSize: parsed.contextSize,
        threads: parsed.threads,
        exact: parsed.mode === "exact",
        ...(parsed.loraPath !== undefined && { loraPath: parsed.loraPath }),
      });
      return new NativeGenerationEngine(engine, lease, device);
    } catch (error) {
      await lease.release();
      throw addonError(error, "requests");
    }
  }

  /** Tokens of context each sequence has, as llama.cpp made it (a prompt must be shorter). */
  get contextSize(): number {
    return this.engine.contextSize;
  }

  get sequences(): number {
    return this.engine.sequences;
  }

  get vocabularySize(): number {
    return this.lease.model.vocabularySize;
  }

  /** Results in request order. Concurrent calls share the engine's sequences. */
  async generate(requests: readonly NativeGenerationRequest[], options: NativeGenerateOptions = {}): Promise<NativeGenerationResult[]> {
    if (this.disposed) throw new NativeEngineDisposedError("the native generation engine was disposed");
    const addonRequests = requests.map((request, index) => this.bindingRequestFor(request, index));
    const { signal } = options;
    if (signal?.aborted) {
      return addonRequests.map(() => ({ completionTokenIds: new Int32Array(0), completionLogprobs: new Float64Array(0), finishReason: "abort" }));
    }
    const callId = nextCallId;
    nextCallId = (nextCallId + 1) % 2 ** 32;
    const onAbort = () => this.engine.abort(callId);
    signal?.addEventListener("abort", onAbort, { once: true });
    try {
      const results = await this.engine.generate(addonRequests, callId);
      return results.map((result) => ({
        completionTokenIds: result.tokens,
        completionLogprobs: result.logprobs,
        finishReason: result.finishReason,
      }));
    } catch (error) {
      throw addonError(error, "requests");
    } finally {
      signal?.removeEventListener("abort", onAbort);
    }
  }

  /** Stops the loop (calls still running reject with NativeEngineDisposedError) and frees the context. Idempotent. */
  async dispose(): Promise<void> {
    if (this.disposed) return;
    this.disposed = true;
    await this.engine.dispose();
    await this.lease.release();
  }

  private bindingRequestFor(request: NativeGenerationRequest, index: number): AddonGenerationRequest {
    const field = `requests[${index}]`;
    const parsed = parseInput(NativeGenerationRequestSchema, request, {
      fieldName: (path) => [field, ...path.map(String)].join("."),
    });
    const promptTokens = parsed.promptTokenIds instanceof Int32Array ? parsed.promptTokenIds : Int32Array.from(parsed.promptTokenIds);
    if (promptTokens.length >= this.contextSize) {
      throw new InvalidInputError(
        `${field}.promptTokenIds`,
        `fewer tokens than the context of ${this.contextSize} (got ${promptTokens.length}); shorten the prompt or raise contextSize`,
      );
    }
    const vocabularySize = this.vocabularySize;
    const badToken = promptTokens.find((token) => token < 0 || token >= vocabularySize);
    if (badToken !== undefined) throw new InvalidInputError(`${field}.promptTokenIds`, `token ids in [0, ${vocabularySize})`, badToken);
    const biasTokens = [...(parsed.logitBias?.keys() ?? [])];
    const badBias = biasTokens.find((token) => token >= vocabularySize);
    if (badBias !== undefined) throw new InvalidInputError(`${field}.logitBias`, `token ids in [0, ${vocabularySize})`, badBias);
    return {
      promptTokens,
      maxTokens: parsed.maxTokens,
      ...parsed.sampler,
      ...(parsed.grammar !== undefined && { grammar: parsed.grammar.gbnf, grammarRoot: parsed.grammar.root }),
      ...(parsed.logitBias !== undefined && {
        logitBiasTokens: Int32Array.from(biasTokens),
        logitBiasValues: Float64Array.from(parsed.logitBias.values()),
      }),
      ...(parsed.stop.length > 0 && { stopSequences: parsed.stop }),
    };
  }
}
