import { z } from "zod";
import { TfjsBackendNameSchema } from "../../trainers/backend/select-backend.js";

export const TrainerBenchResultSchema = z.object({
  benchmark: z.literal("trainer"),
  quick: z.boolean(),
  /** The random project-made model trained (llama architecture, f32, seed 0). */
  preset: z.enum(["tiny", "medium"]),
  parameters: z.number().int().positive(),
  /** Tokens per training sequence (the model's context: llama-finetune trains on nothing shorter); one sequence per optimizer step on both sides. */
  sequenceLength: z.number().int().positive(),
  /**
   * Training tokens per second (forward + backward + AdamW over every weight) of each tfjs backend and of
   * the ggml trainer at each thread count (`threads`); null with the reason when it does not start here.
   */
  backends: z.array(
    z.object({
      backend: z.union([TfjsBackendNameSchema, z.literal("ggml")]),
      threads: z.number().int().positive().optional(),
      tokensPerSecond: z.number().positive().nullable(),
      reason: z.string().optional(),
    }),
  ),
  /** Putting trained weights into the engine (`syncPolicy`: export a GGUF, swap it into LlamaInferenceClient), the fastest of a few versions. */
  weightSync: z.object({ format: z.enum(["full", "adapter"]), exportSeconds: z.number().min(0), swapSeconds: z.number().min(0), seconds: z.number().min(0) }),
  /** llama.cpp's own training (llama-finetune, same text, same sequence length, AdamW) at each thread count; null with the reason when it cannot run. */
  llamaCpp: z.array(z.object({ threads: z.number().int().positive(), tokensPerSecond: z.number().positive().nullable(), reason: z.string().optional() })),
  /** Our best backend / llama.cpp's best thread count; null when either side has no figure. */
  ratio: z.number().positive().nullable(),
});
export type TrainerBenchResult = z.infer<typeof TrainerBenchResultSchema>;
