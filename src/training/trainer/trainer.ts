import type { InferenceClient } from "../../core/inference-client.js";
import type { TrainingBatch } from "../../core/schemas/training-record.js";
import type { ResolvedDevice } from "../../inference/device/resolve-device.js";
import type { UpdateMetrics } from "../update/update-metrics.js";
import type { TrainerBackend, TrainerWeights } from "./trainer-checkpoint.js";

/** Where one weight sync went and how long it took (logged every step). */
export interface TrainerSync {
  /** The file the engine now serves: a LoRA adapter GGUF or a full model GGUF, one per version. */
  path: string;
  format: "adapter" | "full";
  version: number;
  /** Seconds to write the file and to swap it into the engine. */
  exportSeconds: number;
  swapSeconds: number;
}

/**
 * One policy being trained, whatever the backend (tfjs, ggml). The training
 * loop knows a trainer only through this interface: it hands it each
 * TrainingBatch, asks it to serve the new weights to the engine, and to save
 * and restore its state. A trainer never sees rollout logic.
 */
export interface Trainer {
  /** Which implementation this is (`--trainer`). */
  readonly backend: TrainerBackend;
  /** What is trained: every weight of the base (`full`) or LoRA factors over a frozen base (`lora`). */
  readonly weights: TrainerWeights;
  /** The base model file (never modified). */
  readonly modelPath: string;
  /** Policy updates done (restored from a checkpoint). */
  readonly updates: number;
  /** The ggml device the weights live on, and why (the ggml trainer); undefined for tfjs, which runs on the CPU (wasm). */
  readonly device?: ResolvedDevice | undefined;
  /** CPU threads of the update (the ggml trainer: `configuration.threads`, else this machine's cores); undefined for tfjs, whose wasm backend sets its own. */
  readonly threads?: number | undefined;
  /** One policy update on a batch: the records it can train, minibatched, one optimizer step each. */
  update(batch: TrainingBatch): Promise<UpdateMetrics>;
  /**
   * Serves the current weights to `client` as policy `version` (greater than
   * the client's current one): writes a new adapter or model file (engines
   * cache by path) into the trainer's sync folder and swaps it in.
   */
  sync(client: InferenceClient, version: number): Promise<TrainerSync>;
  /**
   * Writes the trainer's whole state into `directory` (created if missing) in
   * the one checkpoint format (`TRAINER_CHECKPOINT_FILES`): the trainable
   * weights, AdamW's step count and moments, the minibatch generator and the
   * update count, manifest last. Any backend restores any backend's checkpoint.
   */
  saveCheckpoint(directory: string): Promise<void>;
  /** Loads a state `saveCheckpoint` wrote for the same base model and trainable weights. */
  restoreCheckpoint(directory: string): Promise<void>;
  /** Writes the final policy to `path`: an adapter (`lora`) or a full model (`full`), loadable by llama.cpp. */
  exportFinal(path: string): Promise<string>;
  /** Frees the weights and optimizer state. */
  dispose(): Promise<void>;
}
