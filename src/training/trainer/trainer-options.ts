import { z } from "zod";
import { SeedSchema } from "../../core/schemas/sampler-settings.js";
import { DeviceSchema } from "../../inference/device/device-option.js";
import { DEFAULT_LORA_ALPHA, DEFAULT_LORA_RANK, DEFAULT_LORA_TARGETS, LoraTargetSchema } from "../../inference/model-files/lora-defaults.js";
import { TrainerConfigurationSchema } from "./trainer-configuration.js";
import { TrainerWeightsSchema } from "./trainer-checkpoint.js";

/** The LoRA a trainer creates over a frozen base (models not made by the project train one by default). */
export const TrainerLoraOptionsSchema = z.strictObject({
  /** Inner width r of every pair, from 1 to 1024. Default `DEFAULT_LORA_RANK` (lora-defaults.ts). */
  rank: z.number().int().min(1).max(1024).default(DEFAULT_LORA_RANK),
  /** LoRA alpha: the update is scaled by alpha / rank. Default `DEFAULT_LORA_ALPHA`. */
  alpha: z.number().positive().default(DEFAULT_LORA_ALPHA),
  /** Matrices to adapt in every block (`output`: the untied output projection). Default `DEFAULT_LORA_TARGETS`: every attention and feed-forward projection. */
  targets: z.array(LoraTargetSchema).min(1).default([...DEFAULT_LORA_TARGETS]),
});
export type TrainerLoraOptions = z.infer<typeof TrainerLoraOptionsSchema>;

/** What every trainer backend is created from. */
export const TrainerOptionsSchema = z.strictObject({
  /** The base model (llama or qwen2 GGUF); never modified. */
  modelPath: z.string().min(1),
  /** `full` or `lora`; default `full` for project-made models, `lora` for any other (`defaultTrainerWeights`). */
  weights: TrainerWeightsSchema.optional(),
  lora: TrainerLoraOptionsSchema.default(TrainerLoraOptionsSchema.parse({})),
  /** The update's algorithm, loss, optimizer and minibatching. */
  configuration: TrainerConfigurationSchema.default(TrainerConfigurationSchema.parse({})),
  /** Folder of the synced files: `policy-v<N>.gguf` or `policy-v<N>.lora.gguf`, one per version (and the initial adapter). */
  syncDirectory: z.string().min(1),
  /** Seed of the minibatch shuffler (and of a fresh adapter's A). */
  seed: SeedSchema.default(0),
  /**
   * The ggml device the ggml trainer holds its weights, gradients and moments on: "auto" (the first GPU
   * ggml finds, never a CPU-type Vulkan device; else the CPU), "cpu", "cuda[:N]" or "vulkan[:N]" — the
   * learner engine's own device. The tfjs trainer runs on the CPU (wasm) whatever this says. Default "auto".
   */
  device: DeviceSchema.default("auto"),
});
export type TrainerOptions = z.input<typeof TrainerOptionsSchema>;
