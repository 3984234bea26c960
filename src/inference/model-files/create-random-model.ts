import { z } from "zod";
import { deriveStream } from "../../core/random/random-stream.js";
import { SeedSchema } from "../../core/schemas/sampler-settings.js";
import { GGUF_WRITABLE_TYPES, type GgufWritableType } from "../../gguf/encode-tensor-data.js";
import type { GgufValue } from "../../gguf/gguf-value.js";
import { writeGguf, type GgufTensorInput } from "../../gguf/write-gguf.js";
import { BEGINNING_OF_SEQUENCE_TOKEN_ID, BYTE_VOCABULARY_SIZE, END_OF_SEQUENCE_TOKEN_ID, PADDING_TOKEN_ID, byteVocabulary } from "./byte-vocabulary.js";
import { expectedModelTensors, type ModelHyperparameters } from "./expected-model-tensors.js";
import { ModelArchitectureSchema, type ModelArchitecture } from "./model-architecture.js";
import { MODEL_PRESETS, ModelPresetNameSchema } from "./model-presets.js";
import { normalValues } from "./normal-values.js";
import { parseInput } from "../../core/parse-input.js";

export const CreateRandomModelOptionsSchema = z.strictObject({
  /** Where to write the GGUF file; it is written to a temporary sibling, then renamed. */
  path: z.string().min(1),
  /** Size: "tiny" (64 wide, 2 layers), "small" (128, 4), "medium" (256, 4), or "qwen2-0.5b" (Qwen2.5-0.5B's shape and vocabulary size). */
  preset: ModelPresetNameSchema,
  /** "llama", or "qwen2" (q/k/v biases, NEOX rope). */
  architecture: ModelArchitectureSchema,
  /** Run seed (unsigned 32-bit); the same options always give a byte-identical file. */
  seed: SeedSchema,
  /** Storage type of the weight matrices; norms and biases are always f32. Default "f32". */
  weightType: z.enum(GGUF_WRITABLE_TYPES).default("f32"),
  /** Write a separate `output.weight` instead of tying the output projection to `token_embd`. Default false. */
  untiedOutput: z.boolean().default(false),
  /** Standard deviation of the normal initialisation of weight matrices. Default 0.02. */
  initialisationScale: z.number().positive().finite().default(0.02),
  /** Recorded as `general.name`. Default `selfplay-<preset>-<architecture>`. */
  name: z.string().min(1).optional(),
  /** Training context in tokens (`<arch>.context_length`), which bounds the engine's context and the trainer's sequences. Default: the preset's. */
  contextLength: z.number().int().min(16).optional(),
});
export type CreateRandomModelOptions = z.input<typeof CreateRandomModelOptionsSchema>;

export interface CreatedModel {
  path: string;
  hyperparameters: ModelHyperparameters;
  /** Number of stored weights (a tied output projection counts once). */
  parameterCount: number;
}

const ROPE_FREQUENCY_BASE = 10_000;
const RMS_NORM_EPSILON = 1e-5;
/** llama.cpp's `general.file_type` (`llama_ftype`) for a model whose matrices are all of one type. */
const FILE_TYPES: Record<GgufWritableType, number> = { f32: 0, f16: 1, q8_0: 7, q4_0: 2 };

/**
 * Writes a freshly initialised model over the byte vocabulary, loadable by
 * node-llama-cpp: weight matrices ~ N(0, scale²), norms 1, biases 0. Every
 * tensor draws from its own seeded stream, `deriveStream(seed, "random-model", name)`.
 */
export async function createRandomModel(options: CreateRandomModelOptions): Promise<CreatedModel> {
  const parsed = parseInput(CreateRandomModelOptionsSchema, options);
  const { path, preset, architecture, seed, weightType, untiedOutput, initialisationScale } = parsed;
  const size = { ...MODEL_PRESETS[preset], ...(parsed.contextLength !== undefined && { contextLength: parsed.contextLength }) };
  const headLength = size.embeddingLength / size.headCount;
  const hyperparameters: ModelHyperparameters = {
    architecture,
    ...size,
    vocabularySize: size.vocabularySize ?? BYTE_VOCABULARY_SIZE,
    keyLength: headLength,
    valueLength: headLength,
    expertCount: 0,
  };
  const name = parsed.name ?? `selfplay-${preset}-${architecture}`;

  const tensors: GgufTensorInput[] = [];
  let parameterCount = 0;
  for (const tensor of expectedModelTensors(hyperparameters)) {
    if (tensor.name === "output.weight" && !untiedOutput) continue;
    const elementCount = tensor.dims.reduce((product, length) => product * length, 1);
    parameterCount += elementCount;
    const { initialisation } = tensor;
    tensors.push({
      name: tensor.name,
      dims: tensor.dims,
      type: initialisation === "random" ? weightType : "f32",
      // Generated when written, so only one tensor's values are in memory at a time.
      values: () =>
        initialisation === "random"
          ? normalValues(deriveStream(seed, "random-model", tensor.name), elementCount, initialisationScale)
          : new Float32Array(elementCount).fill(initialisation === "ones" ? 1 : 0),
    });
  }
  await writeGguf(path, { metadata: modelMetadata(architecture, hyperparameters, name, weightType), tensors });
  return { path, hyperparameters, parameterCount };
}

function modelMetadata(
  architecture: ModelArchitecture,
  hyperparameters: ModelHyperparameters,
  name: string,
  weightType: GgufWritableType,
): Map<string, GgufValue> {
  const uint32 = (value: number): GgufValue => ({ type: "uint32", value });
  const float32 = (value: number): GgufValue => ({ type: "float32", value });
  const { tokens, tokenTypes } = byteVocabulary(hyperparameters.vocabularySize);
  const metadata = new Map<string, GgufValue>([
    ["general.architecture", { type: "string", value: architecture }],
    ["general.name", { type: "string", value: name }],
    ["general.file_type", uint32(FILE_TYPES[weightType])],
    [`${architecture}.vocab_size`, uint32(hyperparameters.vocabularySize)],
    [`${architecture}.context_length`, uint32(hyperparameters.contextLength)],
    [`${architecture}.embedding_length`, uint32(hyperparameters.embeddingLength)],
    [`${architecture}.block_count`, uint32(hyperparameters.blockCount)],
    [`${architecture}.feed_forward_length`, uint32(hyperparameters.feedForwardLength)],
    [`${architecture}.attention.head_count`, uint32(hyperparameters.headCount)],
    [`${architecture}.attention.head_count_kv`, uint32(hyperparameters.headCountKv)],
    [`${architecture}.rope.dimension_count`, uint32(hyperparameters.keyLength)],
    [`${architecture}.rope.freq_base`, float32(ROPE_FREQUENCY_BASE)],
    [`${architecture}.attention.layer_norm_rms_epsilon`, float32(RMS_NORM_EPSILON)],
    // The byte vocabulary: llama.cpp's "gpt2" BPE with no merges leaves every byte its own token.
    ["tokenizer.ggml.model", { type: "string", value: "gpt2" }],
    ["tokenizer.ggml.pre", { type: "string", value: "default" }],
    ["tokenizer.ggml.tokens", { type: "array", itemType: "string", value: tokens }],
    ["tokenizer.ggml.token_type", { type: "array", itemType: "int32", value: tokenTypes }],
    ["tokenizer.ggml.merges", { type: "array", itemType: "string", value: [] }],
    ["tokenizer.ggml.bos_token_id", uint32(BEGINNING_OF_SEQUENCE_TOKEN_ID)],
    ["tokenizer.ggml.eos_token_id", uint32(END_OF_SEQUENCE_TOKEN_ID)],
    ["tokenizer.ggml.padding_token_id", uint32(PADDING_TOKEN_ID)],
  ]);
  if (weightType === "q8_0" || weightType === "q4_0") metadata.set("general.quantization_version", uint32(2));
  return metadata;
}
