import type { Llama, LlamaContext, LlamaContextSequence, LlamaModel, Token } from "node-llama-cpp";
import { InvalidInputError } from "../../core/errors.js";
import type {
  GenerateOptions,
  GenerationOutput,
  GenerationRequest,
  InferenceCapabilities,
  InferenceClient,
  WeightUpdate,
} from "../../core/inference-client.js";
import { WeightUpdateSchema } from "../../core/inference-client.js";
import { resolve } from "node:path";
import type { FinishReason } from "../../core/schemas/step.js";
import { LlamaInferenceClientOptionsSchema, type LlamaInferenceClientOptions } from "./llama-client-options.js";
import { validateModelFile } from "../model-files/validate-model-file.js";
import { validateLoraAdapter } from "../model-files/validate-lora-adapter.js";
import { loadLlama } from "./load-llama.js";
import { promptFormatFor, type PromptFormat } from "./prompt-format.js";
import { SequencePool } from "./sequence-pool.js";
import { ConstraintCompiler, type ConstrainedSampling } from "./constraint-sampling.js";
import { parseInput } from "../../core/parse-input.js";

type ParsedOptions = ReturnType<typeof LlamaInferenceClientOptionsSchema.parse>;

/**
 * Adapters loaded onto one model before the next swap loads the base afresh:
 * node-llama-cpp frees adapters only with their model, so memory would grow
 * with every policy version otherwise.
 */
const ADAPTERS_PER_MODEL_LOAD = 16;

/** A loaded base model, shared by the policies that put different adapters over it. */
interface LoadedModel {
  path: string;
  model: LlamaModel;
  /** Adapter paths loaded onto it: node-llama-cpp caches adapters by path until the model is disposed. */
  adapterPaths: Set<string>;
  /** Policies (served or still finishing calls) that use it. */
  users: number;
}

/** One served policy version: a model, an optional adapter, a context, and the bookkeeping to retire it safely. */
interface ServedPolicy {
  version: number;
  loaded: LoadedModel;
  model: LlamaModel;
  context: LlamaContext;
  pool: SequencePool;
  format: PromptFormat;
  contextSize: number;
  inFlight: number;
  retired: boolean;
}

/**
 * An InferenceClient over any GGUF model through node-llama-cpp. Each request
 * takes one sequence of a shared context, so up to `sequences` requests decode
 * together. For every completion token it records the id and the log of the
 * probability the sampler drew it with; with `topK: 0, topP: 1, minP: 0` (the
 * training defaults) that is the full temperature-scaled distribution.
 */
export class LlamaInferenceClient implements InferenceClient {
  readonly capabilities: InferenceCapabilities;
  private served: ServedPolicy;
  private swap: Promise<void> | undefined;

  private readonly constraints: ConstraintCompiler;

  private constructor(private readonly options: ParsedOptions, served: ServedPolicy, llama: Llama) {
    this.served = served;
    this.constraints = new ConstraintCompiler(llama);
    this.capabilities = {
      tokenIds: true,
      exactLogprobs: options.mode === "exact",
      grammars: true,
      jsonSchema: true,
      lora: true,
      parallelSequences: options.sequences,
    };
  }

  static async create(options: LlamaInferenceClientOptions): Promise<LlamaInferenceClient> {
    const parsed = parseInput(LlamaInferenceClientOptionsSchema, options);
    const loaded = await loadModel(parsed, parsed.modelPath);
    return new LlamaInferenceClient(parsed, await servePolicy(parsed, loaded, parsed.loraPath, 0), await loadLlama(parsed.gpu));
  }

  get policyVersion(): number {
    return this.served.version;
  }

  /** Name of the prompt format in use: `plain` for project-made models, else the chat wrapper's. */
  get promptFormat(): string {
    return this.served.format.name;
  }

  /** The text of each token on its own (a lone byte of a multi-byte character shows as U+FFFD). */
  tokenTexts(tokenIds: ArrayLike<number>): string[] {
    return Array.from(tokenIds, (id) => this.served.model.detokenize([id as Token], true));
  }

  async generate(requests: readonly GenerationRequest[], options: GenerateOptions = {}): Promise<GenerationOutput[]> {
    await this.swap;
    const served = this.served;
    served.inFlight++;
    try {
      return await Promise.all(requests.map((request) => this.generateOne(served, request, options.signal)));
    } finally {
      served.inFlight--;
      if (served.retired && served.inFlight === 0) await disposePolicy(served);
    }
  }

  /**
   * Serves new weights in a new context: a full model file (`modelPath`), a
   * LoRA adapter over the current base (`loraPath`), or both. Calls already
   * running finish on the old weights, then those are disposed. Every adapter
   * version needs a new file path: node-llama-cpp caches adapters by path.
   */
  async swapWeights(update: WeightUpdate): Promise<void> {
    const parsed = parseInput(WeightUpdateSchema, update);
    if (parsed.modelPath === undefined && parsed.loraPath === undefined) {
      throw new InvalidInputError("modelPath", "the new policy's GGUF file, or a loraPath for an adapter over the current base");
    }
    const swap = (async () => {
      const current = this.served;
      const basePath = parsed.modelPath ?? current.loaded.path;
      const reuse = basePath === current.loaded.path && current.loaded.adapterPaths.size < ADAPTERS_PER_MODEL_LOAD;
      if (reuse && parsed.loraPath !== undefined && current.loaded.adapterPaths.has(resolve(parsed.loraPath))) {
        throw new InvalidInputError("loraPath", "a file path not used before on this model (node-llama-cpp caches adapters by path; write each version to a new file)", parsed.loraPath);
      }
      const loaded = reuse ? current.loaded : await loadModel(this.options, basePath);
      const next = await servePolicy(this.options, loaded, parsed.loraPath, parsed.policyVersion);
      this.served = next;
      current.retired = true;
      if (current.inFlight === 0) await disposePolicy(current);
    })();
    this.swap = swap.catch(() => undefined);
    await swap;
  }

  async dispose(): Promise<void> {
    await this.swap;
    this.served.retired = true;
    if (this.served.inFlight === 0) await disposePolicy(this.served);
  }

  private async generateOne(served: ServedPolicy, request: GenerationRequest, signal: AbortSignal | undefined): Promise<GenerationOutput> {
    const constrained = request.constraint === null ? undefined : await this.constraints.samplingFor(served.model, request.constraint);
    const promptTokens = served.format.tokenize(request.messages);
    const room = served.contextSize - promptTokens.length;
    if (room < 1) {
      throw new InvalidInputError(
        "messages",
        `a prompt shorter than the context of ${served.contextSize} tokens (this one has ${promptTokens.length}); shorten it or raise contextSize`,
      );
    }
    const sequence = await served.pool.acquire();
    try {
      await sequence.clearHistory();
      return await this.decode(served, sequence, promptTokens, request, Math.min(request.sampler.maxTokens, room), constrained, signal);
    } finally {
      served.pool.release(sequence);
    }
  }

  private async decode(
    served: ServedPolicy,
    sequence: LlamaContextSequence,
    promptTokens: Token[],
    request: GenerationRequest,
    tokenBudget: number,
    constrained: ConstrainedSampling | undefined,
    signal: AbortSignal | undefined,
  ): Promise<GenerationOutput> {
    const { sampler } = request;
    const completionTokenIds: number[] = [];
    const completionLogprobs: number[] = [];
    const textTokens: Token[] = [];
    let finishReason: FinishReason = "length";
    let stopAt: number | undefined;
    const evaluation = sequence.evaluateWithMetadata(
      promptTokens,
      { confidence: true },
      // With a grammar, node-llama-cpp masks before the sampler chain when confidence is asked for, so the
      // recorded probability is the one under the masked (and biased) distribution the token was drawn from.
      {
        temperature: sampler.temperature,
        topK: sampler.topK,
        topP: sampler.topP,
        minP: sampler.minP,
        seed: sampler.seed,
        yieldEogToken: true,
        ...constrained,
      },
    );
    for await (const { token, confidence } of evaluation) {
      if (signal?.aborted) {
        finishReason = "abort";
        break;
      }
      completionTokenIds.push(token);
      completionLogprobs.push(Math.log(confidence));
      // An end-of-generation token is kept among the tokens (the policy chose to stop) but not in the text.
      if (served.model.isEogToken(token)) {
        finishReason = "stop";
        break;
      }
      textTokens.push(token);
      // Detokenising the completion after every token is quadratic: do it only when a stop string needs checking.
      stopAt = sampler.stop.length > 0 ? firstStop(served.model.detokenize(textTokens), sampler.stop) : undefined;
      if (stopAt !== undefined) {
        finishReason = "stop";
        break;
      }
      if (completionTokenIds.length >= tokenBudget) break;
    }
    const decoded = served.model.detokenize(textTokens);
    const text = stopAt === undefined ? decoded : decoded.slice(0, stopAt);
    return {
      text,
      promptTokenIds: Int32Array.from(promptTokens),
      completionTokenIds: Int32Array.from(completionTokenIds),
      completionLogprobs: Float64Array.from(completionLogprobs),
      finishReason,
      constrained: constrained !== undefined,
      policyVersion: served.version,
    };
  }
}

function firstStop(text: string, stops: readonly string[]): number | undefined {
  let first: number | undefined;
  for (const stop of stops) {
    const index = text.indexOf(stop);
    if (index >= 0 && (first === undefined || index < first)) first = index;
  }
  return first;
}

async function loadModel(options: ParsedOptions, modelPath: string): Promise<LoadedModel> {
  // llama.cpp aborts the whole process on some malformed files; our checks raise a named error instead.
  await validateModelFile(modelPath);
  const llama = await loadLlama(options.gpu);
  return { path: modelPath, model: await llama.loadModel({ modelPath }), adapterPaths: new Set(), users: 0 };
}

async function servePolicy(options: ParsedOptions, loaded: LoadedModel, loraPath: string | undefined, version: number): Promise<ServedPolicy> {
  if (loraPath !== undefined) {
    await validateLoraAdapter(loraPath, loaded.path);
    loaded.adapterPaths.add(resolve(loraPath));
  }
  const { model } = loaded;
  loaded.users++;
  try {
    const context = await model.createContext({
      sequences: options.sequences,
      contextSize: options.contextSize ?? Math.min(model.trainContextSize, 2048),
      threads: options.threads,
      ...(loraPath !== undefined && { lora: { adapters: [{ filePath: loraPath, scale: 1 }] } }),
      ...(options.mode === "exact"
        ? { flashAttention: false, experimentalKvCacheKeyType: "F32", experimentalKvCacheValueType: "F32" }
        : {}),
    });
    const sequences = Array.from({ length: options.sequences }, () => context.getSequence());
    return {
      version,
      loaded,
      model,
      context,
      pool: new SequencePool(sequences),
      format: promptFormatFor(model),
      // llama.cpp may round the requested size up; prompts are checked against what it made.
      contextSize: context.contextSize,
      inFlight: 0,
      retired: false,
    };
  } catch (error) {
    loaded.users--;
    if (loaded.users === 0) await model.dispose();
    throw error;
  }
}

async function disposePolicy(served: ServedPolicy): Promise<void> {
  await served.context.dispose();
  served.loaded.users--;
  if (served.loaded.users === 0) await served.model.dispose();
}
