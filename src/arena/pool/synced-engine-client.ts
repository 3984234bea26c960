import type {
  GenerateOptions,
  GenerationOutput,
  GenerationRequest,
  InferenceCapabilities,
  InferenceClient,
  WeightUpdate,
} from "../../core/inference-client.js";
import type { LlamaInferenceClientOptions } from "../../inference/llama/llama-client-options.js";
import type { LlamaInferenceClient } from "../../inference/llama/llama-inference-client.js";
import { openEngineAt } from "./open-engine-at.js";
import type { WorkerWeights } from "./pool-messages.js";

export interface SyncedEngineOptions {
  engine: LlamaInferenceClientOptions;
  /** The main thread's latest policy version (one Int32). */
  versionCell: SharedArrayBuffer;
  /** Versions the engine may lag before it swaps. */
  maxStaleness: number;
  /** Asks the main thread for the latest weights. */
  fetchWeights: () => Promise<WorkerWeights>;
}

/**
 * A pool worker's own engine. Before each batch it reads the main thread's
 * policy version (an Atomics load, no message) and, when the engine lags by
 * more than `maxStaleness`, fetches the latest weights and swaps to them.
 */
export class SyncedEngineClient implements InferenceClient {
  private syncing: Promise<void> | undefined;
  private readonly latestVersion: Int32Array;

  private constructor(
    private readonly engine: LlamaInferenceClient,
    private readonly options: SyncedEngineOptions,
  ) {
    this.latestVersion = new Int32Array(options.versionCell);
  }

  /** A new worker's engine starts at the latest weights, whatever the staleness bound. */
  static async open(options: SyncedEngineOptions): Promise<SyncedEngineClient> {
    return new SyncedEngineClient(await openEngineAt(options.engine, await options.fetchWeights()), options);
  }

  get capabilities(): InferenceCapabilities {
    return this.engine.capabilities;
  }

  get policyVersion(): number {
    return this.engine.policyVersion;
  }

  async generate(requests: readonly GenerationRequest[], options?: GenerateOptions): Promise<GenerationOutput[]> {
    if (Atomics.load(this.latestVersion, 0) - this.engine.policyVersion > this.options.maxStaleness) {
      // Concurrent batches share one swap.
      this.syncing ??= this.swapToLatest().finally(() => (this.syncing = undefined));
      await this.syncing;
    }
    return this.engine.generate(requests, options);
  }

  swapWeights(update: WeightUpdate): Promise<void> {
    return this.engine.swapWeights(update);
  }

  dispose(): Promise<void> {
    return this.engine.dispose();
  }

  private async swapToLatest(): Promise<void> {
    const weights = await this.options.fetchWeights();
    if (weights.policyVersion > this.engine.policyVersion) await this.engine.swapWeights(weights);
  }
}
