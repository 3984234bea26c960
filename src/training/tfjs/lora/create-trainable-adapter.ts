import { z } from "zod";
import { InvalidInputError } from "../../../core/errors/index.js";
import { parseInput } from "../../../core/parse-input.js";
import { deriveStream } from "../../../core/random/random-stream.js";
import { SeedSchema } from "../../../core/schemas/sampler-settings.js";
import { DEFAULT_LORA_ALPHA, DEFAULT_LORA_RANK, DEFAULT_LORA_TARGETS, LoraTargetSchema } from "../../../inference/model-files/lora-defaults.js";
import { readLoraBase } from "../../../inference/model-files/read-lora-base.js";
import { writeLoraAdapter, type LoraMatrixPair, type WrittenLoraAdapter } from "../../../inference/model-files/write-lora-adapter.js";

export const TrainableAdapterOptionsSchema = z.strictObject({
  /** The base model (llama or qwen2 GGUF, any type the engine loads). */
  modelPath: z.string().min(1),
  /** Where to write the adapter GGUF. */
  path: z.string().min(1),
  /** Inner width r of every pair. Default `DEFAULT_LORA_RANK` (lora-defaults.ts), as the trainers'. */
  rank: z.number().int().min(1).default(DEFAULT_LORA_RANK),
  /** LoRA alpha: the update is scaled by alpha / rank (in float32, as llama.cpp does). Default `DEFAULT_LORA_ALPHA`. */
  alpha: z.number().positive().default(DEFAULT_LORA_ALPHA),
  /** Matrices to adapt, in every block (`output` is the untied output projection). Default `DEFAULT_LORA_TARGETS`: all seven block projections. */
  targets: z.array(LoraTargetSchema).min(1).default([...DEFAULT_LORA_TARGETS]),
  /** Seed of A's initialisation; the same options give a byte-identical file. */
  seed: SeedSchema.default(0),
});
export type TrainableAdapterOptions = z.input<typeof TrainableAdapterOptionsSchema>;

/**
 * Writes a fresh LoRA adapter to train: A uniform in ±1/√in (PEFT's
 * Kaiming-uniform initialisation), B zero, so the adapted model starts out
 * exactly as the base and the engine can serve it from the first step. Load
 * it with `Policy.load({ modelPath, loraPath })`: its factors become the
 * trainable variables, the base stays frozen.
 */
export async function createTrainableAdapter(options: TrainableAdapterOptions): Promise<WrittenLoraAdapter> {
  const { modelPath, path, rank, alpha, targets, seed } = parseInput(TrainableAdapterOptionsSchema, options);
  const base = await readLoraBase(modelPath);
  const tensors: Record<string, LoraMatrixPair> = {};
  for (const target of targets) {
    const pattern = target === "output" ? /^output\.weight$/ : new RegExp(`^blk\\.\\d+\\.${target}\\.weight$`);
    const matches = [...base.weights.values()].filter((weight) => pattern.test(weight.name));
    if (matches.length === 0) {
      const why = target === "output" ? " (a model with a tied output projection has no output.weight)" : "";
      throw new InvalidInputError("targets", `kinds of matrix ${modelPath} has${why}`, target);
    }
    for (const { name, inputLength, outputLength } of matches) {
      const stream = deriveStream(seed, "lora-initialisation", name);
      const bound = 1 / Math.sqrt(inputLength);
      tensors[name] = {
        a: Float32Array.from({ length: rank * inputLength }, () => (stream.next() * 2 - 1) * bound),
        b: new Float32Array(outputLength * rank),
      };
    }
  }
  return writeLoraAdapter(path, { base: modelPath, alpha, rank, tensors });
}
