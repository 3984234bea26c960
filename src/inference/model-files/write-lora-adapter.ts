import { z } from "zod";
import { InvalidInputError } from "../../core/errors/index.js";
import { parseInput } from "../../core/parse-input.js";
import type { GgufValue } from "../../gguf/gguf-value.js";
import { dimsFromRowMajorShape } from "../../gguf/row-major-shape.js";
import { writeGguf, type GgufTensorInput } from "../../gguf/write-gguf.js";
import { TOKEN_EMBEDDING_NAME, adaptableWeights, type AdaptableWeight, type LoraBase } from "./adaptable-weights.js";
import type { ModelHyperparameters } from "./expected-model-tensors.js";
import { LORA_ADAPTER_KEYS, LORA_A_SUFFIX, LORA_B_SUFFIX } from "./lora-adapter-format.js";
import { MODEL_ARCHITECTURES } from "./model-architecture.js";
import { readLoraBase } from "./read-lora-base.js";

const isHyperparameters = (value: unknown): value is ModelHyperparameters =>
  typeof value === "object" && value !== null && (MODEL_ARCHITECTURES as readonly unknown[]).includes((value as { architecture?: unknown }).architecture);

const Float32ArraySchema = z.custom<Float32Array>((value) => value instanceof Float32Array, "a Float32Array");

export const LoraMatrixPairSchema = z.object({
  /** The down-projection A, row-major `[rank, in]`. */
  a: Float32ArraySchema,
  /** The up-projection B, row-major `[out, rank]`. */
  b: Float32ArraySchema,
});
export type LoraMatrixPair = z.infer<typeof LoraMatrixPairSchema>;

export const WriteLoraAdapterOptionsSchema = z.strictObject({
  /**
   * The base model: its GGUF path (validated, and only the matrices it has may
   * be adapted), or its hyperparameters (`validateModelFile` reports them).
   */
  base: z.union([z.string().min(1), z.custom<ModelHyperparameters>(isHyperparameters, "hyperparameters of a llama or qwen2 model")]),
  /** LoRA alpha, stored as float32 `adapter.lora.alpha`; llama.cpp scales the update by alpha / rank. Positive. */
  alpha: z
    .number()
    .positive()
    .refine((value) => Number.isFinite(Math.fround(value)) && Math.fround(value) > 0, "a positive number a float32 can hold"),
  /** Inner width of every A·B pair. */
  rank: z.number().int().min(1),
  /** The pairs, by the base matrix they adapt (`blk.0.attn_q.weight`); at least one. */
  tensors: z.record(z.string(), LoraMatrixPairSchema).refine((tensors) => Object.keys(tensors).length > 0, "at least one adapted matrix"),
  /** Recorded as `general.name` when given. */
  name: z.string().min(1).optional(),
});
export type WriteLoraAdapterOptions = z.input<typeof WriteLoraAdapterOptionsSchema>;

export interface WrittenLoraAdapter {
  path: string;
  architecture: string;
  alpha: number;
  rank: number;
  /** The adapted base matrices, in file order. */
  baseTensorNames: string[];
}

/**
 * Writes a LoRA adapter GGUF in the layout llama.cpp loads (see
 * lora-adapter-format.ts): f32 `<name>.lora_a` with dims `[in, rank]` and
 * `<name>.lora_b` with dims `[rank, out]` per adapted matrix, through a
 * temporary file renamed into place. Each pair is checked against the base's
 * matrix shape first; a mismatch is an InvalidInputError naming the tensor.
 */
export async function writeLoraAdapter(path: string, options: WriteLoraAdapterOptions): Promise<WrittenLoraAdapter> {
  const { base, alpha, rank, tensors, name } = parseInput(WriteLoraAdapterOptionsSchema, options);
  const loraBase: LoraBase =
    typeof base === "string" ? await readLoraBase(base) : { architecture: base.architecture, weights: adaptableWeights(base) };
  const baseTensorNames = [...loraBase.weights.keys()].filter((weightName) => Object.hasOwn(tensors, weightName));
  for (const tensorName of Object.keys(tensors)) {
    if (!loraBase.weights.has(tensorName)) {
      const why = tensorName === TOKEN_EMBEDDING_NAME ? "selfplay does not adapt the token embedding; " : "";
      throw new InvalidInputError(`tensors["${tensorName}"]`, `${why}names of the base model's matrices, e.g. ${[...loraBase.weights.keys()].slice(0, 3).join(", ")}`);
    }
  }

  const ggufTensors: GgufTensorInput[] = [];
  for (const tensorName of baseTensorNames) {
    const { inputLength, outputLength } = loraBase.weights.get(tensorName) as AdaptableWeight;
    const { a, b } = tensors[tensorName] as LoraMatrixPair;
    if (a.length !== rank * inputLength) {
      throw new InvalidInputError(`tensors["${tensorName}"].a.length`, `${rank * inputLength} (row-major [rank ${rank}, in ${inputLength}])`, a.length);
    }
    if (b.length !== outputLength * rank) {
      throw new InvalidInputError(`tensors["${tensorName}"].b.length`, `${outputLength * rank} (row-major [out ${outputLength}, rank ${rank}])`, b.length);
    }
    ggufTensors.push(
      { name: `${tensorName}${LORA_A_SUFFIX}`, dims: dimsFromRowMajorShape([rank, inputLength]), type: "f32", values: a },
      { name: `${tensorName}${LORA_B_SUFFIX}`, dims: dimsFromRowMajorShape([outputLength, rank]), type: "f32", values: b },
    );
  }

  const metadata = new Map<string, GgufValue>([
    [LORA_ADAPTER_KEYS.architecture, { type: "string", value: loraBase.architecture }],
    [LORA_ADAPTER_KEYS.generalType, { type: "string", value: "adapter" }],
    [LORA_ADAPTER_KEYS.adapterType, { type: "string", value: "lora" }],
    [LORA_ADAPTER_KEYS.alpha, { type: "float32", value: alpha }],
  ]);
  if (name !== undefined) metadata.set(LORA_ADAPTER_KEYS.name, { type: "string", value: name });
  await writeGguf(path, { metadata, tensors: ggufTensors });
  return { path, architecture: loraBase.architecture, alpha: Math.fround(alpha), rank, baseTensorNames };
}
