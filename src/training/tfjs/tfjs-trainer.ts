import { copyFile, mkdir } from "node:fs/promises";
import { join, resolve } from "node:path";
import type { InferenceClient } from "../../core/inference-client.js";
import { parseInput } from "../../core/parse-input.js";
import { RandomStream, deriveStream } from "../../core/random/random-stream.js";
import type { TrainingBatch } from "../../core/schemas/training-record.js";
import { readOptimizerState } from "./optimizer/read-optimizer-state.js";
import { writeOptimizerState } from "./optimizer/write-optimizer-state.js";
import { defaultTrainerWeights } from "../trainer/default-trainer-weights.js";
import type { Trainer, TrainerSync } from "../trainer/trainer.js";
import type { TrainerWeights } from "../trainer/trainer-checkpoint.js";
import { readTrainerManifest, saveTrainerCheckpoint, trainerCheckpointPaths } from "../trainer/trainer-checkpoint-files.js";
import { TrainerOptionsSchema, type TrainerOptions } from "../trainer/trainer-options.js";
import { assertBackendTakesThreads } from "../trainer/update-threads.js";
import { createTrainableAdapter } from "./lora/create-trainable-adapter.js";
import { exportLoraAdapter } from "./lora/export-lora-adapter.js";
import { AdamW } from "./optimizer/adamw.js";
import { Policy } from "./policy/policy.js";
import { BatchConstraintMasks } from "../update/batch-constraint-masks.js";
import { trainOnBatch } from "./train-on-batch.js";
import type { TrainerConfiguration } from "../trainer/trainer-configuration.js";
import type { UpdateMetrics } from "../update/update-metrics.js";
import { exportPolicyModel } from "./sync/export-policy-model.js";
import { syncPolicy } from "./sync/sync-policy.js";

/**
 * The tfjs (wasm) trainer behind the Trainer interface: the reference
 * backend. Its Policy recomputes the engine's logprobs in f32, `trainOnBatch`
 * takes one update, and weights reach the engine as a full f32 model or the
 * LoRA adapter. It holds models up to ~1 B f32 parameters for scoring, about a
 * quarter of that for training (the wasm heap's 4 GiB).
 */
export class TfjsTrainer implements Trainer {
  readonly backend = "tfjs" as const;
  private updatesDone = 0;
  private readonly constraintMasks: BatchConstraintMasks;
  /** Rebuilds constrained Steps' grammar masks; made at the first batch that has one (undefined: the addon is not built). */

  private constructor(
    private policy: Policy,
    private optimizer: AdamW,
    private minibatchRandom: RandomStream,
    readonly modelPath: string,
    readonly weights: TrainerWeights,
    private readonly configuration: TrainerConfiguration,
    private readonly syncDirectory: string,
  ) {
    this.constraintMasks = new BatchConstraintMasks(modelPath);
  }

  /**
   * Loads the base (and, for `lora`, writes a fresh adapter — B = 0, so the
   * adapted model starts as the base — to `<syncDirectory>/policy-v0.lora.gguf`).
   */
  static async create(options: TrainerOptions): Promise<TfjsTrainer> {
    const parsed = parseInput(TrainerOptionsSchema, options);
    assertBackendTakesThreads("tfjs", parsed.configuration.threads, "configuration.threads");
    const modelPath = resolve(parsed.modelPath);
    const weights = parsed.weights ?? (await defaultTrainerWeights(modelPath));
    await mkdir(parsed.syncDirectory, { recursive: true });
    let loraPath: string | undefined;
    if (weights === "lora") {
      loraPath = join(parsed.syncDirectory, "policy-v0.lora.gguf");
      await createTrainableAdapter({ modelPath, path: loraPath, ...parsed.lora, seed: parsed.seed });
    }
    const policy = await Policy.load({ modelPath, ...(loraPath !== undefined && { loraPath }) });
    return new TfjsTrainer(
      policy,
      new AdamW(parsed.configuration.optimizer),
      deriveStream(parsed.seed, "minibatches"),
      modelPath,
      weights,
      parsed.configuration,
      parsed.syncDirectory,
    );
  }

  get updates(): number {
    return this.updatesDone;
  }

  /** The adapter the engine must serve from the start (`lora`), else undefined: the base itself is version 0. */
  get initialAdapterPath(): string | undefined {
    return this.policy.loraPath;
  }

  async update(batch: TrainingBatch): Promise<UpdateMetrics> {
    const constraintMasks = await this.constraintMasks.of(batch.records);
    const metrics = await trainOnBatch(batch.records, {
      policy: this.policy,
      optimizer: this.optimizer,
      configuration: this.configuration,
      random: () => this.minibatchRandom.next(),
      ...(constraintMasks !== undefined && { constraintMasks }),
    });
    this.updatesDone++;
    return metrics;
  }

  async sync(client: InferenceClient, version: number): Promise<TrainerSync> {
    const sync = await syncPolicy({ policy: this.policy, client, directory: this.syncDirectory, version });
    return { path: sync.path, format: sync.format, version, exportSeconds: sync.exportSeconds, swapSeconds: sync.swapSeconds };
  }

  async saveCheckpoint(directory: string): Promise<void> {
    const snapshot = this.optimizer.steps > 0 ? await this.optimizer.snapshot() : undefined;
    await saveTrainerCheckpoint(directory, {
      manifest: { backend: this.backend, weights: this.weights, modelPath: this.modelPath, updates: this.updatesDone, minibatchRandom: this.minibatchRandom.state() },
      writeWeights: (path) => this.exportFinal(path),
      writeOptimizer: snapshot && ((path) => writeOptimizerState(path, snapshot, this.policy.variables)),
    });
  }

  async restoreCheckpoint(directory: string): Promise<void> {
    const manifest = await readTrainerManifest(directory, { modelPath: this.modelPath, weights: this.weights });
    const paths = trainerCheckpointPaths(directory);
    // The policy keeps reading its file (an adapter's header on export): a copy beside the synced versions outlives the checkpoint folder.
    const restored = join(this.syncDirectory, `restored-u${manifest.updates}${this.weights === "lora" ? ".lora" : ""}.gguf`);
    await copyFile(paths.weights, restored);
    const policy = await Policy.load(this.weights === "lora" ? { modelPath: this.modelPath, loraPath: restored } : { modelPath: restored });
    const optimizer = new AdamW(this.configuration.optimizer);
    if (manifest.optimizer) optimizer.restore(await readOptimizerState(paths.optimizer, policy.variables));
    this.policy.dispose();
    this.optimizer.dispose();
    this.policy = policy;
    this.optimizer = optimizer;
    this.minibatchRandom = RandomStream.fromState(manifest.minibatchRandom);
    this.updatesDone = manifest.updates;
  }

  async exportFinal(path: string): Promise<string> {
    return this.weights === "lora" ? exportLoraAdapter(this.policy, path) : exportPolicyModel(this.policy, path);
  }

  async dispose(): Promise<void> {
    this.policy.dispose();
    this.optimizer.dispose();
    await this.constraintMasks.dispose();
  }
}
