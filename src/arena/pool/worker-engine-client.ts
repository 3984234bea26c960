import { InvalidInputError } from "../../core/errors/index.js";
import {
  WeightUpdateSchema,
  type GenerateOptions,
  type GenerationOutput,
  type GenerationRequest,
  type InferenceCapabilities,
  type InferenceClient,
  type WeightUpdate,
} from "../../core/inference-client.js";
import { parseInput } from "../../core/parse-input.js";
import { LlamaInferenceClientOptionsSchema, type LlamaInferenceClientOptions } from "../../inference/llama/llama-client-options.js";
import { llamaCapabilities } from "../../inference/llama/llama-capabilities.js";
import type { LlamaInferenceClient } from "../../inference/llama/llama-inference-client.js";
import { validateLoraAdapter } from "../../inference/model-files/validate-lora-adapter.js";
import { validateModelFile } from "../../inference/model-files/validate-model-file.js";
import { openEngineAt } from "./open-engine-at.js";
import type { WorkerWeights } from "./pool-messages.js";

type ParsedOptions = ReturnType<typeof LlamaInferenceClientOptionsSchema.parse>;

/** What a pool worker needs to open its own engine and follow weight syncs. */
export interface WorkerEngineSpec {
  options: ParsedOptions;
  /** One Int32 the workers read before each batch: the latest policy version. */
  versionCell: SharedArrayBuffer;
  /** The weights of the latest version, sent to a worker that asks. */
  weights: () => WorkerWeights;
}

/**
 * The arena's client for a RolloutPool with `engine: "per-worker"`: each
 * worker opens a LlamaInferenceClient with these options, and `swapWeights`
 * reaches all of them — a worker swaps before its next batch (or lags by at
 * most the pool's `maxStaleness` versions). Calls made on this thread (an
 * evaluation, a judge outside the pool) go to an engine opened here on first use.
 */
export class WorkerEngineClient implements InferenceClient {
  readonly capabilities: InferenceCapabilities;
  private current: WorkerWeights;
  private readonly versionCell = new SharedArrayBuffer(Int32Array.BYTES_PER_ELEMENT);
  private local: Promise<LlamaInferenceClient> | undefined;

  private constructor(private readonly options: ParsedOptions) {
    this.current = { policyVersion: 0, modelPath: options.modelPath, ...(options.loraPath !== undefined && { loraPath: options.loraPath }) };
    this.capabilities = llamaCapabilities(options);
  }

  /** Checks the model (and adapter) files here, so a bad path fails now rather than in every worker. */
  static async create(options: LlamaInferenceClientOptions): Promise<WorkerEngineClient> {
    const parsed = parseInput(LlamaInferenceClientOptionsSchema, options);
    await validateModelFile(parsed.modelPath);
    if (parsed.loraPath !== undefined) await validateLoraAdapter(parsed.loraPath, parsed.modelPath);
    return new WorkerEngineClient(parsed);
  }

  get policyVersion(): number {
    return this.current.policyVersion;
  }

  get workerEngine(): WorkerEngineSpec {
    return { options: this.options, versionCell: this.versionCell, weights: () => this.current };
  }

  async generate(requests: readonly GenerationRequest[], options: GenerateOptions = {}): Promise<GenerationOutput[]> {
    this.local ??= openEngineAt(this.options, this.current);
    return (await this.local).generate(requests, options);
  }

  /** Checks the new files, then publishes the version: every worker batch that starts after this resolves uses it. */
  async swapWeights(update: WeightUpdate): Promise<void> {
    const parsed = parseInput(WeightUpdateSchema, update);
    if (parsed.modelPath === undefined && parsed.loraPath === undefined) {
      throw new InvalidInputError("modelPath", "the new policy's GGUF file, or a loraPath for an adapter over the current base");
    }
    const next: WorkerWeights = {
      policyVersion: parsed.policyVersion,
      modelPath: parsed.modelPath ?? this.current.modelPath,
      ...(parsed.loraPath !== undefined && { loraPath: parsed.loraPath }),
    };
    if (this.local) {
      await (await this.local).swapWeights(parsed);
    } else {
      await validateModelFile(next.modelPath);
      if (next.loraPath !== undefined) await validateLoraAdapter(next.loraPath, next.modelPath);
    }
    this.current = next;
    Atomics.store(new Int32Array(this.versionCell), 0, next.policyVersion);
  }

  async dispose(): Promise<void> {
    const local = this.local;
    this.local = undefined;
    if (local) await (await local).dispose();
  }
}
