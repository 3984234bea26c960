import { z } from "zod";
import { RandomStreamStateSchema } from "../../core/random/random-stream.js";
import { DeviceRecordSchema } from "../../inference/device/device-record.js";

/** The trainer implementations: `tfjs` (wasm, the reference) and `ggml` (the native addon, on llama.cpp's own library). */
export const TrainerBackendSchema = z.enum(["tfjs", "ggml"]);
export type TrainerBackend = z.infer<typeof TrainerBackendSchema>;

/** `full`: every weight of the base, f32. `lora`: LoRA factors over a frozen base of any type. */
export const TrainerWeightsSchema = z.enum(["full", "lora"]);
export type TrainerWeights = z.infer<typeof TrainerWeightsSchema>;

/**
 * The files of a trainer checkpoint folder, the same for every backend and environment:
 * - `weights.gguf`: the trainable weights — a full f32 model GGUF (`full`) or a
 *   llama.cpp LoRA adapter GGUF (`lora`); both load in llama.cpp as they are.
 * - `optimizer.gguf`: AdamW's moments, f32 tensors `<weight name>.adam_m` and
 *   `.adam_v` named after the tensors of weights.gguf, and the step count in
 *   `selfplay.adamw.steps` (absent before the first optimizer step).
 * - `trainer.json`: the manifest below, written last by rename: a folder without it is no checkpoint.
 */
export const TRAINER_CHECKPOINT_FILES = { weights: "weights.gguf", optimizer: "optimizer.gguf", manifest: "trainer.json" } as const;

export const TrainerCheckpointManifestSchema = z.strictObject({
  format: z.literal("selfplay-trainer-checkpoint"),
  version: z.literal(1),
  /** The backend that wrote it; any backend may restore it. */
  backend: TrainerBackendSchema,
  weights: TrainerWeightsSchema,
  /** Absolute path of the base model the weights belong to. */
  modelPath: z.string(),
  /** Policy updates done. */
  updates: z.number().int().min(0),
  /** Whether optimizer.gguf exists (no optimizer step yet: no moments). */
  optimizer: z.boolean(),
  /** The minibatch shuffler's seedrandom state, so a resumed run draws the same minibatches. */
  minibatchRandom: RandomStreamStateSchema,
  /** The ggml device the weights were trained on (the ggml trainer); absent for tfjs. A checkpoint restores on any device. */
  device: DeviceRecordSchema.optional(),
  /** CPU threads of the update that wrote it (the ggml trainer); absent for tfjs. A checkpoint restores with any count. */
  threads: z.number().int().positive().optional(),
});
export type TrainerCheckpointManifest = z.infer<typeof TrainerCheckpointManifestSchema>;
