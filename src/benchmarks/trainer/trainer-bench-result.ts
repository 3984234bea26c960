import { z } from "zod";
import { ModelPresetNameSchema } from "../../inference/model-files/model-presets.js";
import { TfjsBackendNameSchema } from "../../training/tfjs/backend/select-backend.js";

export const TrainerBenchResultSchema = z.object({
  benchmark: z.literal("trainer"),
  quick: z.boolean(),
  /** The random project-made model trained (seed 0: byte presets llama f32, `qwen2-0.5b` qwen2 q8_0); null with `--model`. */
  preset: ModelPresetNameSchema.nullable(),
  /** The file trained with `--model`. */
  model: z.string().optional(),
  /** `full`: every weight trains (byte presets, every backend); `lora`: an adapter over the frozen base (ggml only). */
  weights: z.enum(["full", "lora"]),
  /** The adapter trained with `lora`: rank, alpha and how many matrices it adapts. */
  lora: z.object({ rank: z.number().int().positive(), alpha: z.number().positive(), pairs: z.number().int().positive() }).optional(),
  /** Storage type of the model's weight matrices (f32, q8_0, …). */
  weightType: z.string(),
  /** Stored weights of the model file. */
  parameters: z.number().int().positive(),
  /** Tokens per training sequence (the model's context: llama-finetune trains on nothing shorter); one sequence per optimizer step on both sides. */
  sequenceLength: z.number().int().positive(),
  /**
   * Training tokens per second (forward + backward + AdamW over the trained weights) of each tfjs backend and of
   * the ggml trainer at each thread count (`threads`) — with a LoRA, entropy off and on (`entropy`); null with
   * the reason when it does not start here.
   */
  backends: z.array(
    z.object({
      backend: z.union([TfjsBackendNameSchema, z.literal("ggml")]),
      threads: z.number().int().positive().optional(),
      /** ggml: whether each token's entropy was computed and an entropy bonus backpropagated through it (RL's entropy term). */
      entropy: z.boolean().optional(),
      tokensPerSecond: z.number().positive().nullable(),
      reason: z.string().optional(),
      /** ggml: the global gradient norm of the last timed step (nothing clipped). */
      gradientNorm: z.number().optional(),
      /** ggml: the process's peak resident memory when this cell ended, every earlier cell included (cells run in order: the first one's is its own). */
      peakRssBytesSoFar: z.number().int().positive().optional(),
      /**
       * LoRA runs: tokens/s of the engine's own forward pass (llama.cpp, the engine's exact settings) over the same
       * `sequenceLength` tokens of the same file with logits at every position, at the same threads: the median of
       * 3 warm runs after an untimed one; null with `engineForwardReason` when the addon is not built.
       */
      engineForwardTokensPerSecond: z.number().positive().nullable().optional(),
      engineForwardReason: z.string().optional(),
      /** LoRA runs: `tokensPerSecond` ÷ `engineForwardTokensPerSecond` (a step costs about two forwards, so ~0.5 at best); null when either is. */
      forwardRatio: z.number().positive().nullable().optional(),
    }),
  ),
  /** The benchmark process's peak resident memory after training, in bytes (every backend measured so far, and the model file's creation, included). */
  peakRssBytes: z.number().int().positive(),
  /** Putting trained weights into the engine (`syncPolicy`: export a GGUF, swap it into LlamaInferenceClient), the fastest of a few versions. */
  weightSync: z.object({ format: z.enum(["full", "adapter"]), exportSeconds: z.number().min(0), swapSeconds: z.number().min(0), seconds: z.number().min(0) }),
  /** llama.cpp's own training (llama-finetune, same text, same sequence length, AdamW) at each thread count; null with the reason when it cannot run. */
  llamaCpp: z.array(z.object({ threads: z.number().int().positive(), tokensPerSecond: z.number().positive().nullable(), reason: z.string().optional() })),
  /** Our best backend / llama.cpp's best thread count; null when either side has no figure. */
  ratio: z.number().positive().nullable(),
});
export type TrainerBenchResult = z.infer<typeof TrainerBenchResultSchema>;
