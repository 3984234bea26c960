import { mkdir } from "node:fs/promises";
import { z } from "zod";
import { join, resolve } from "node:path";
import { InvalidInputError } from "../../core/errors/index.js";
import type { InferenceClient } from "../../core/inference-client.js";
import { parseInput } from "../../core/parse-input.js";
import { GgufReader } from "../../gguf/gguf-reader.js";
import { RandomStream, deriveStream } from "../../core/random/random-stream.js";
import type { TrainingBatch } from "../../core/schemas/training-record.js";
import { deviceRecord } from "../../inference/device/device-record.js";
import type { ResolvedDevice } from "../../inference/device/resolve-device.js";
import { defaultTrainerWeights } from "../trainer/default-trainer-weights.js";
import type { Trainer, TrainerSync } from "../trainer/trainer.js";
import type { TrainerWeights } from "../trainer/trainer-checkpoint.js";
import { readTrainerManifest, saveTrainerCheckpoint, trainerCheckpointPaths } from "../trainer/trainer-checkpoint-files.js";
import { TrainerOptionsSchema } from "../trainer/trainer-options.js";
import { updateThreads } from "../trainer/update-threads.js";
import { BatchConstraintMasks } from "../update/batch-constraint-masks.js";
import type { TrainerConfiguration } from "../trainer/trainer-configuration.js";
import type { UpdateMetrics } from "../update/update-metrics.js";
import { createTrainableAdapter } from "../tfjs/lora/create-trainable-adapter.js";
import { exportGgmlAdapter } from "./export-ggml-adapter.js";
import { exportGgmlModel } from "./export-ggml-model.js";
import { GgmlPolicy } from "./ggml-policy.js";
import { readGgmlOptimizerState, writeGgmlOptimizerState } from "./ggml-optimizer-state.js";
import { ggmlTrainOnBatch } from "./ggml-train-on-batch.js";

/** What a GgmlTrainer takes: every backend's options, and the ggml policy's. */
export const GgmlTrainerOptionsSchema = TrainerOptionsSchema.extend({
  /** "auto": the AVX-512 kernels where they run, else the portable one beside ggml's operations ("generic"); "portable": ggml's operations whatever the CPU. See GgmlPolicyOptionsSchema. Default "auto". */
  cpuKernels: z.enum(["auto", "generic", "portable"]).default("auto"),
  /** Tokens per packed row (one graph); see GgmlPolicyOptionsSchema. Default 128. */
  maxChunkTokens: z.number().int().min(1).default(128),
  /** Bytes the trainer's policy may hold (weights, optimizer state, compute buffer); default 90% of this machine's memory. */
  memoryLimitBytes: z.number().int().positive().optional(),
});
export type GgmlTrainerOptions = z.input<typeof GgmlTrainerOptionsSchema>;

/**
 * The ggml trainer behind the Trainer interface: the policy lives in the
 * native addon on llama.cpp's own ggml, the update is `ggmlTrainOnBatch`
 * (the tfjs trainer's losses, selection and metrics), AdamW's moments are ggml
 * tensors, and checkpoints use the one format every backend reads. Trains
 * every weight of an f32 model (`full`), or a LoRA adapter over a frozen base
 * of any type llama.cpp reads (`lora`).
 */
export class GgmlTrainer implements Trainer {
  readonly backend = "ggml" as const;
  private updatesDone = 0;
  private readonly constraintMasks: BatchConstraintMasks;
  private readonly optimizer = { steps: 0 };
  /** Rebuilds constrained Steps' grammar masks; made at the first batch that has one. */

  private constructor(
    private policy: GgmlPolicy,
    private reference: GgmlPolicy | undefined,
    private minibatchRandom: RandomStream,
    readonly modelPath: string,
    readonly weights: TrainerWeights,
    private readonly configuration: TrainerConfiguration,
    private readonly syncDirectory: string,
    private readonly policyOptions: { threads: number; cpuKernels: "auto" | "generic" | "portable"; maxChunkTokens: number; device: string; memoryLimitBytes?: number },
  ) {
    this.constraintMasks = new BatchConstraintMasks(modelPath);
  }

  static async create(options: GgmlTrainerOptions): Promise<GgmlTrainer> {
    const parsed = parseInput(GgmlTrainerOptionsSchema, options);
    const { cpuKernels, maxChunkTokens, memoryLimitBytes } = parsed;
    const threads = updateThreads(parsed.configuration.threads);
    const modelPath = resolve(parsed.modelPath);
    const weights = parsed.weights ?? (await defaultTrainerWeights(modelPath));
    if (parsed.configuration.algorithm === "ppo-critic") {
      throw new InvalidInputError("configuration.algorithm", 'reinforce, grpo or ppo on the ggml trainer (its value head is tfjs-only: use --trainer tfjs for "ppo-critic")', "ppo-critic");
    }
    await mkdir(parsed.syncDirectory, { recursive: true });
    let loraPath: string | undefined;
    if (weights === "lora") {
      // A fresh adapter (B = 0, so the adapted model starts as the base), as the tfjs trainer makes it.
      loraPath = join(parsed.syncDirectory, "policy-v0.lora.gguf");
      await createTrainableAdapter({ modelPath, path: loraPath, ...parsed.lora, seed: parsed.seed });
    }
    const policyOptions = { threads, cpuKernels, maxChunkTokens, device: parsed.device, ...(memoryLimitBytes !== undefined && { memoryLimitBytes }) };
    const policy = await GgmlPolicy.load({ modelPath, trainable: true, ...(loraPath !== undefined && { loraPath }), ...policyOptions });
    try {
      const reference = parsed.configuration.loss.klCoefficient > 0 ? await GgmlPolicy.load({ modelPath, ...policyOptions }) : undefined;
      return new GgmlTrainer(policy, reference, deriveStream(parsed.seed, "minibatches"), modelPath, weights, parsed.configuration, parsed.syncDirectory, policyOptions);
    } catch (error) {
      await policy.dispose();
      throw error;
    }
  }

  get updates(): number {
    return this.updatesDone;
  }

  /** CPU threads of ggml's backend in the update (`configuration.threads`, else this machine's cores). */
  get threads(): number {
    return this.policy.threads;
  }

  /** The device the policy (weights, gradients, moments) is on, and why. */
  get device(): ResolvedDevice {
    return this.policy.device;
  }

  /** The adapter the engine must serve from the start (`lora`), else undefined: the base itself is version 0. */
  get initialAdapterPath(): string | undefined {
    return this.policy.loraPath;
  }

  async update(batch: TrainingBatch): Promise<UpdateMetrics> {
    const constraintMasks = await this.constraintMasks.of(batch.records);
    // The reference policy's graphs run in the update too.
    const fallbackNodes = () => this.policy.fallbackNodes + (this.reference?.fallbackNodes ?? 0);
    const fallbackBefore = fallbackNodes();
    const metrics = await ggmlTrainOnBatch(batch.records, {
      policy: this.policy,
      reference: this.reference,
      configuration: this.configuration,
      optimizer: this.optimizer,
      random: () => this.minibatchRandom.next(),
      ...(constraintMasks !== undefined && { constraintMasks }),
    });
    this.updatesDone++;
    return { ...metrics, fallbackNodes: fallbackNodes() - fallbackBefore };
  }

  async sync(client: InferenceClient, version: number): Promise<TrainerSync> {
    const started = performance.now();
    const adapter = this.weights === "lora";
    const path = await this.exportFinal(join(this.syncDirectory, adapter ? `policy-v${version}.lora.gguf` : `policy-v${version}.gguf`));
    const exported = performance.now();
    await client.swapWeights(adapter ? { policyVersion: version, loraPath: path } : { policyVersion: version, modelPath: path });
    const format = adapter ? ("adapter" as const) : ("full" as const);
    return { path, format, version, exportSeconds: (exported - started) / 1000, swapSeconds: (performance.now() - exported) / 1000 };
  }

  async saveCheckpoint(directory: string): Promise<void> {
    const steps = this.optimizer.steps;
    await saveTrainerCheckpoint(directory, {
      manifest: {
        backend: this.backend,
        weights: this.weights,
        modelPath: this.modelPath,
        updates: this.updatesDone,
        minibatchRandom: this.minibatchRandom.state(),
        device: deviceRecord(this.policy.device),
        threads: this.threads,
      },
      writeWeights: (path) => this.exportFinal(path),
      writeOptimizer: steps > 0 ? (path) => writeGgmlOptimizerState(path, this.policy, steps) : undefined,
    });
  }

  async restoreCheckpoint(directory: string): Promise<void> {
    const manifest = await readTrainerManifest(directory, { modelPath: this.modelPath, weights: this.weights });
    const paths = trainerCheckpointPaths(directory);
    // The trainer keeps exporting against its base (or first adapter's) layout: only the trainable values come from the checkpoint.
    const reader = await GgufReader.open(paths.weights);
    try {
      for (const { name, trainable } of this.policy.tensors) {
        if (!trainable) continue;
        if (reader.findTensor(name) === undefined) throw new InvalidInputError(`${paths.weights}: ${name}`, "every tensor of the base model (was the checkpoint made for another model?)", "missing");
        this.policy.native.writeTensor(name, "weight", await reader.readTensor(name));
      }
    } finally {
      await reader.close();
    }
    this.optimizer.steps = manifest.optimizer ? await readGgmlOptimizerState(paths.optimizer, this.policy) : 0;
    if (!manifest.optimizer) for (const { name, trainable } of this.policy.tensors) if (trainable) this.zeroMoments(name);
    this.policy.native.clearGradients();
    this.minibatchRandom = RandomStream.fromState(manifest.minibatchRandom);
    this.updatesDone = manifest.updates;
  }

  async exportFinal(path: string): Promise<string> {
    return this.weights === "lora" ? exportGgmlAdapter(this.policy, path) : exportGgmlModel(this.policy, path);
  }

  async dispose(): Promise<void> {
    await this.policy.dispose();
    await this.reference?.dispose();
    await this.constraintMasks.dispose();
  }

  private zeroMoments(name: string): void {
    const size = this.policy.native.readTensor(name, "adam_m").length;
    this.policy.native.writeTensor(name, "adam_m", new Float32Array(size));
    this.policy.native.writeTensor(name, "adam_v", new Float32Array(size));
  }
}
