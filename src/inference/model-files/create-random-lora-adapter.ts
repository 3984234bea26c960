import { z } from "zod";
import { InvalidInputError } from "../../core/errors/index.js";
import { parseInput } from "../../core/parse-input.js";
import { deriveStream } from "../../core/random/random-stream.js";
import { SeedSchema } from "../../core/schemas/sampler-settings.js";
import { DEFAULT_LORA_TARGETS } from "./lora-defaults.js";
import { normalValues } from "./normal-values.js";
import { readLoraBase } from "./read-lora-base.js";
import { writeLoraAdapter, type LoraMatrixPair, type WrittenLoraAdapter } from "./write-lora-adapter.js";

export const CreateRandomLoraAdapterOptionsSchema = z.strictObject({
  /** The base model's GGUF file; validated, and the adapter is shaped to it. */
  baseModelPath: z.string().min(1),
  /** Where to write the adapter; written to a temporary sibling, then renamed. */
  path: z.string().min(1),
  /** Inner width of each A·B pair. */
  rank: z.number().int().min(1),
  /** LoRA alpha; the update is scaled by alpha / rank. Default: rank (a factor of 1). */
  alpha: z.number().positive().finite().optional(),
  /** Run seed (unsigned 32-bit); the same options and base always give a byte-identical file. */
  seed: SeedSchema,
  /**
   * Kinds of matrix to adapt, in every block that has them: names between
   * `blk.N.` and `.weight` (e.g. "attn_q"), or "output" for an untied
   * `output.weight`. Default `DEFAULT_LORA_TARGETS`: all seven attention and feed-forward matrices.
   */
  targets: z.array(z.string().min(1)).min(1).default([...DEFAULT_LORA_TARGETS]),
  /**
   * Standard deviation of A's and B's entries ~ N(0, scale²). Unlike training
   * initialisation, B is not zero, so the adapter changes the model's outputs.
   * Default 0.05.
   */
  initialisationScale: z.number().positive().finite().default(0.05),
  /** Recorded as `general.name` when given. */
  name: z.string().min(1).optional(),
});
export type CreateRandomLoraAdapterOptions = z.input<typeof CreateRandomLoraAdapterOptionsSchema>;

/**
 * Writes a LoRA adapter with random A and B for the base model's matrices of
 * the target kinds. Each matrix draws from its own seeded streams,
 * `deriveStream(seed, "random-lora-adapter", <base tensor name>, "a" | "b")`.
 */
export async function createRandomLoraAdapter(options: CreateRandomLoraAdapterOptions): Promise<WrittenLoraAdapter> {
  const parsed = parseInput(CreateRandomLoraAdapterOptionsSchema, options);
  const { baseModelPath, path, rank, seed, targets, initialisationScale } = parsed;
  const base = await readLoraBase(baseModelPath);
  const kindOf = (name: string): string => name.replace(/^blk\.\d+\./, "").replace(/\.weight$/, "");
  const available = [...new Set([...base.weights.keys()].map(kindOf))];
  const unknown = targets.find((target) => !available.includes(target));
  if (unknown !== undefined) throw new InvalidInputError("targets", `kinds of matrix the base model has: ${available.join(", ")}`, unknown);

  const tensors: Record<string, LoraMatrixPair> = {};
  for (const { name, inputLength, outputLength } of base.weights.values()) {
    if (!targets.includes(kindOf(name))) continue;
    tensors[name] = {
      a: normalValues(deriveStream(seed, "random-lora-adapter", name, "a"), rank * inputLength, initialisationScale),
      b: normalValues(deriveStream(seed, "random-lora-adapter", name, "b"), outputLength * rank, initialisationScale),
    };
  }
  return writeLoraAdapter(path, { base: baseModelPath, alpha: parsed.alpha ?? rank, rank, tensors, name: parsed.name });
}
