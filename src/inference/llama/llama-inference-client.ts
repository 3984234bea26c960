import type { LlamaModel, Token } from "node-llama-cpp";
import { InvalidInputError } from "../../core/errors/index.js";
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
import { LlamaInferenceClientOptionsSchema, type LlamaInferenceClientOptions } from "./llama-client-options.js";
import { validateModelFile } from "../model-files/validate-model-file.js";
import { validateLoraAdapter } from "../model-files/validate-lora-adapter.js";
import { llamaCapabilities } from "./llama-capabilities.js";
import { loadLlama } from "./load-llama.js";
import type { ResolvedDevice } from "../device/resolve-device.js";
import { nodeLlamaCppDevice } from "./node-llama-cpp-device.js";
import { promptFormatFor, type PromptFormat } from "./prompt-format.js";
import { chooseContextSize } from "./choose-context-size.js";
import type { EngineSettings } from "./engine-settings.js";
import { rolloutThreads } from "./rollout-threads.js";
import { ConstraintCompiler } from "./constraint-sampling.js";
import { parseInput } from "../../core/parse-input.js";
import { chooseDecoder, type Decoder } from "./choose-decoder.js";
import { completionText } from "./completion-text.js";
import { NativePolicyDecoder } from "./native-policy-decoder.js";
import { NodeLlamaCppDecoder } from "./node-llama-cpp-decoder.js";
import type { DecodedCompletion, DecodeJob, PolicyDecoder } from "./policy-decoder.js";

/** The options with the decoder, the context and the threads settled: each is resolved once, when the client is created. */
type ParsedOptions = Omit<ReturnType<typeof LlamaInferenceClientOptionsSchema.parse>, "decoder" | "contextSize" | "threads"> & { decoder: Decoder; contextSize: number; threads: number };

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
  /** Where node-llama-cpp put it (its own decoder only: the native loop loads the weights on its device itself). */
  device?: ResolvedDevice;
}

/** One served policy version: a model, an optional adapter, its decoder, and the bookkeeping to retire it safely. */
interface ServedPolicy {
  version: number;
  loaded: LoadedModel;
  model: LlamaModel;
  decoder: PolicyDecoder;
  format: PromptFormat;
  inFlight: number;
  retired: boolean;
}

/**
 * An InferenceClient over any GGUF model. node-llama-cpp reads the model,
 * tokenises and applies chat templates; the decoding runs in selfplay's native
 * loop (or node-llama-cpp's own path, see the `decoder` option), up to
 * `sequences` requests at a time. For every completion token it records the id
 * and the log of the probability the sampler drew it with; with `topK: 0,
 * topP: 1, minP: 0` (the training defaults) that is the full temperature-scaled distribution.
 */
export class LlamaInferenceClient implements InferenceClient {
  readonly capabilities: InferenceCapabilities;
  private served: ServedPolicy;
  private swap: Promise<void> | undefined;

  private constructor(
    private readonly options: ParsedOptions,
    served: ServedPolicy,
    private readonly constraints: ConstraintCompiler,
    /** Each sequence's context and the decode's threads, and why: said on stderr under the device (`describeEngineSettings`). */
    readonly settings: EngineSettings,
  ) {
    this.served = served;
    this.capabilities = llamaCapabilities(options);
  }

  static async create(options: LlamaInferenceClientOptions): Promise<LlamaInferenceClient> {
    const input = parseInput(LlamaInferenceClientOptionsSchema, options);
    const decoder = await chooseDecoder(input.decoder, input.device);
    const llama = await loadLlama(input.device);
    const constraints = new ConstraintCompiler(llama);
    const loaded = await loadModel({ device: input.device, decoder }, input.modelPath);
    try {
      const settings: EngineSettings = {
        context: await chooseContextSize(llama, loaded.model, { requested: input.contextSize, sequences: input.sequences, mode: input.mode, weightsLoaded: decoder !== "native" }),
        threads: rolloutThreads(input.threads, parameterCount(loaded.model)),
      };
      const parsed: ParsedOptions = { ...input, decoder, contextSize: settings.context.contextSize, threads: settings.threads.threads };
      return new LlamaInferenceClient(parsed, await servePolicy(parsed, loaded, constraints, parsed.loraPath, 0), constraints, settings);
    } catch (error) {
      if (loaded.users === 0) await loaded.model.dispose();
      throw error;
    }
  }

  /** The device the policy runs on (every layer), and why it was chosen. */
  get device(): ResolvedDevice {
    return this.served.decoder.device;
  }

  /** What decodes: "native" (selfplay's loop) or "node-llama-cpp" (its own API). */
  get decoder(): Decoder {
    return this.options.decoder;
  }

  get policyVersion(): number {
    return this.served.version;
  }

  /** Name of the prompt format in use: `plain` for project-made models, `chat-template` for a file's own chat template. */
  get promptFormat(): string {
    return this.served.format.name;
  }

  /** The text of a token sequence, special tokens (an end of generation) left out. */
  detokenize(tokenIds: ArrayLike<number>): string {
    return this.served.model.detokenize(Array.from(tokenIds) as Token[]);
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
      const jobs = requests.map((request) => jobFor(served, request));
      const completions = await served.decoder.decode(jobs, options.signal);
      return completions.map((completion, index) => outputFor(served, jobs[index] as DecodeJob, completion));
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
      const next = await servePolicy(this.options, loaded, this.constraints, parsed.loraPath, parsed.policyVersion);
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
}

/**
 * Tokenises a request and fits its completion into the context; a prompt that does not fit is refused, never truncated.
 * Prefix tokens join the prompt: the decoder continues after them as if it had sampled them.
 */
function jobFor(served: ServedPolicy, request: GenerationRequest): DecodeJob {
  const promptTokens = [...served.format.tokenize(request.messages), ...((request.prefixTokenIds ?? []) as Token[])];
  const { contextSize } = served.decoder;
  const room = contextSize - promptTokens.length;
  if (room < 1) {
    throw new InvalidInputError(
      "messages",
      `a prompt shorter than the context of ${contextSize} tokens (this one has ${promptTokens.length}); shorten it or raise contextSize`,
    );
  }
  return { promptTokens, request, tokenBudget: Math.min(request.sampler.maxTokens, room) };
}

/** A decoded completion as the client returns it, with its text (`completionText`). */
function outputFor(served: ServedPolicy, job: DecodeJob, completion: DecodedCompletion): GenerationOutput {
  const { text, stopped } = completionText(served.model, Array.from(completion.completionTokenIds) as Token[], job.request.sampler.stop);
  return {
    text,
    promptTokenIds: Int32Array.from(job.promptTokens),
    completionTokenIds: completion.completionTokenIds,
    completionLogprobs: completion.completionLogprobs,
    finishReason: stopped && completion.finishReason === "length" ? "stop" : completion.finishReason,
    constrained: job.request.constraint !== null,
    policyVersion: served.version,
  };
}

async function loadModel(options: Pick<ParsedOptions, "device" | "decoder">, modelPath: string): Promise<LoadedModel> {
  // llama.cpp aborts the whole process on some malformed files; our checks raise a named error instead.
  await validateModelFile(modelPath);
  const llama = await loadLlama(options.device);
  // The native loop loads the weights itself: node-llama-cpp then needs only the vocabulary (tokenizer, chat template).
  if (options.decoder === "native") return { path: modelPath, model: await llama.loadModel({ modelPath, vocabOnly: true }), adapterPaths: new Set(), users: 0 };
  const device = await nodeLlamaCppDevice(llama, options.device);
  const model = await llama.loadModel({ modelPath, gpuLayers: device.cpu ? 0 : "max" });
  return { path: modelPath, model, adapterPaths: new Set(), users: 0, device };
}

async function servePolicy(
  options: ParsedOptions,
  loaded: LoadedModel,
  constraints: ConstraintCompiler,
  loraPath: string | undefined,
  version: number,
): Promise<ServedPolicy> {
  if (loraPath !== undefined) {
    await validateLoraAdapter(loraPath, loaded.path);
    loaded.adapterPaths.add(resolve(loraPath));
  }
  const { model } = loaded;
  loaded.users++;
  try {
    const decoderOptions = {
      sequences: options.sequences,
      contextSize: options.contextSize,
      threads: options.threads,
      mode: options.mode,
      ...(loraPath !== undefined && { loraPath }),
    };
    const decoder =
      options.decoder === "native"
        ? await NativePolicyDecoder.create(model, { ...decoderOptions, modelPath: loaded.path, device: options.device })
        : await NodeLlamaCppDecoder.create(model, constraints, { ...decoderOptions, device: loaded.device ?? (await nodeLlamaCppDevice(await loadLlama(options.device), options.device)) });
    return { version, loaded, model, decoder, format: promptFormatFor(model), inFlight: 0, retired: false };
  } catch (error) {
    loaded.users--;
    if (loaded.users === 0) await model.dispose();
    throw error;
  }
}

/** The model's parameters, from its file's tensor list (a vocabulary-only load reads it too). */
function parameterCount(model: LlamaModel): number {
  return (model.fileInfo.tensorInfo ?? []).reduce((sum, tensor) => sum + tensor.dimensions.reduce<number>((product, size) => product * Number(size), 1), 0);
}

async function disposePolicy(served: ServedPolicy): Promise<void> {
  await served.decoder.dispose();
  served.loaded.users--;
  if (served.loaded.users === 0) await served.model.dispose();
}
