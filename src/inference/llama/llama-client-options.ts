import { z } from "zod";
import { DeviceSchema } from "../device/device-option.js";

export const LlamaInferenceClientOptionsSchema = z.strictObject({
  /** GGUF file to serve: a project-made model or any llama.cpp-compatible one. */
  modelPath: z.string().min(1),
  /** LoRA adapter GGUF applied over `modelPath` (checked against it first). */
  loraPath: z.string().min(1).optional(),
  /**
   * "exact" (default, for training): f32 KV cache and no flash attention, so
   * recorded logprobs match an independent f32 forward pass to ~1e-6.
   * "fast": node-llama-cpp's defaults (f16 KV cache), logprobs off by ~2e-3.
   */
  mode: z.enum(["exact", "fast"]).default("exact"),
  /** Sequences decoded together in one context (one per concurrent request). Default 4. */
  sequences: z.number().int().min(1).max(256).default(4),
  /**
   * Tokens of context per sequence. Default: the file's training context (`context_length`), capped by
   * node-llama-cpp's memory check for all `sequences` (`chooseContextSize`); 2048 for a file that records none.
   */
  contextSize: z.number().int().min(16).optional(),
  /**
   * CPU threads of the decode. Default (`rolloutThreads`): every core for a model of at least 100M parameters,
   * else 1 — a small model's per-token work does not pay for ggml's thread barriers.
   */
  threads: z.number().int().min(1).optional(),
  /**
   * Where the model runs, every layer on it: "auto" (default: the first GPU ggml finds, never a
   * CPU-type Vulkan device such as llvmpipe; else the CPU), "cpu", "cuda[:N]" or "vulkan[:N]".
   */
  device: DeviceSchema.default("auto"),
  /**
   * What decodes: "native" (selfplay's C++ loop: no JavaScript per token,
   * continuous batching; about 2× the tokens/s, see benchmarks/native-decode.ts),
   * "node-llama-cpp" (its own evaluate API), or
   * "auto" (default): native when its addon is built, else node-llama-cpp with
   * one warning. Both record the same logprobs; sampled tokens differ between
   * them at temperature > 0 (each is deterministic per seed), greedy ones agree.
   */
  decoder: z.enum(["native", "node-llama-cpp", "auto"]).default("auto"),
});
export type LlamaInferenceClientOptions = z.input<typeof LlamaInferenceClientOptionsSchema>;
