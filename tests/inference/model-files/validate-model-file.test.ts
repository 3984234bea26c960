import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GgufFileNotFoundError, NotGgufError } from "../../../src/gguf/errors/index.js";
import { InvalidModelFileError } from "../../../src/inference/errors/index.js";
import type { GgufValue } from "../../../src/gguf/gguf-value.js";
import type { GgufBytesTensorInput } from "../../../src/gguf/write-gguf.js";
import { createRandomModel } from "../../../src/inference/model-files/create-random-model.js";
import { validateModelFile } from "../../../src/inference/model-files/validate-model-file.js";
import { rewriteGguf } from "./rewrite-gguf.js";

let directory: string;
let llamaPath: string;
let qwenPath: string;
beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), "selfplay-validate-model-"));
  llamaPath = (await createRandomModel({ path: join(directory, "llama.gguf"), preset: "tiny", architecture: "llama", seed: 1 })).path;
  qwenPath = (await createRandomModel({ path: join(directory, "qwen2.gguf"), preset: "small", architecture: "qwen2", seed: 1 })).path;
});
afterAll(async () => {
  await rm(directory, { recursive: true, force: true });
});

let counter = 0;
type Edit = (metadata: Map<string, GgufValue>, tensors: GgufBytesTensorInput[]) => GgufBytesTensorInput[] | void;

/** The InvalidModelFileError that validating an edited copy of `source` throws. */
async function rejection(source: string, edit: Edit): Promise<InvalidModelFileError> {
  const path = await rewriteGguf(source, join(directory, `edited-${counter++}.gguf`), edit);
  const error = await validateModelFile(path).catch((caught: unknown) => caught);
  expect(error).toBeInstanceOf(InvalidModelFileError);
  expect((error as InvalidModelFileError).path).toBe(path);
  expect((error as Error).message.startsWith(`${path}: `)).toBe(true);
  return error as InvalidModelFileError;
}

describe("validateModelFile", () => {
  it("accepts project-made models and reports their hyperparameters", async () => {
    const llama = await validateModelFile(llamaPath);
    expect(llama).toEqual({
      path: llamaPath,
      name: "selfplay-tiny-llama",
      tokenizerModel: "gpt2",
      hyperparameters: {
        architecture: "llama",
        vocabularySize: 259,
        contextLength: 256,
        embeddingLength: 64,
        blockCount: 2,
        feedForwardLength: 192,
        headCount: 4,
        headCountKv: 4,
        keyLength: 16,
        valueLength: 16,
        expertCount: 0,
      },
    });
    expect((await validateModelFile(qwenPath)).hyperparameters).toMatchObject({ architecture: "qwen2", headCountKv: 2, keyLength: 32 });
  });

  it("rejects a model without llama.feed_forward_length (which would abort llama.cpp)", async () => {
    const error = await rejection(llamaPath, (metadata) => void metadata.delete("llama.feed_forward_length"));
    expect(error.field).toBe("llama.feed_forward_length");
    expect(error.message).toMatch(/llama\.feed_forward_length: missing; a model file needs it \(a uint32: hidden width of the feed-forward\)/);
  });

  it("rejects missing, mistyped and inconsistent hyperparameters", async () => {
    expect((await rejection(qwenPath, (metadata) => void metadata.delete("qwen2.attention.head_count"))).field).toBe("qwen2.attention.head_count");
    const wideType = await rejection(llamaPath, (metadata) => void metadata.set("llama.embedding_length", { type: "uint64", value: 64n }));
    expect(wideType.message).toMatch(/is a uint64, expected a uint32/);
    const zero = await rejection(llamaPath, (metadata) => void metadata.set("llama.block_count", { type: "uint32", value: 0 }));
    expect(zero.message).toMatch(/is 0, expected at least 1/);
    const heads = await rejection(llamaPath, (metadata) => void metadata.set("llama.attention.head_count", { type: "uint32", value: 3 }));
    expect(heads.message).toMatch(/does not divide embedding_length 64/);
    const kvHeads = await rejection(qwenPath, (metadata) => void metadata.set("qwen2.attention.head_count_kv", { type: "uint32", value: 3 }));
    expect(kvHeads.field).toBe("qwen2.attention.head_count_kv");
    const rope = await rejection(llamaPath, (metadata) => void metadata.set("llama.rope.dimension_count", { type: "uint32", value: 8 }));
    expect(rope.message).toMatch(/is 8; llama\.cpp requires it to equal the head width 16/);
    const epsilon = await rejection(llamaPath, (metadata) => void metadata.set("llama.attention.layer_norm_rms_epsilon", { type: "float64", value: 1e-5 }));
    expect(epsilon.message).toMatch(/expected a float32/);
    const perLayer = await rejection(llamaPath, (metadata) => void metadata.set("llama.feed_forward_length", { type: "array", itemType: "uint32", value: [192, 128] }));
    expect(perLayer.message).toMatch(/per-layer values \[192, 128\] differ/);
  });

  it("accepts uniform per-layer arrays, a missing head_count_kv and expert_count 0, as llama.cpp does", async () => {
    const path = await rewriteGguf(llamaPath, join(directory, "per-layer.gguf"), (metadata) => {
      metadata.set("llama.feed_forward_length", { type: "array", itemType: "int32", value: [192, 192] });
      metadata.delete("llama.attention.head_count_kv");
      metadata.set("llama.expert_count", { type: "uint32", value: 0 });
    });
    expect((await validateModelFile(path)).hyperparameters).toMatchObject({ feedForwardLength: 192, headCountKv: 4, expertCount: 0 });
  });

  it("rejects an unsupported or missing architecture", async () => {
    const unsupported = await rejection(llamaPath, (metadata) => void metadata.set("general.architecture", { type: "string", value: "mamba" }));
    expect(unsupported.message).toMatch(/general\.architecture: is "mamba"; supported: llama, qwen2/);
    expect((await rejection(llamaPath, (metadata) => void metadata.delete("general.architecture"))).field).toBe("general.architecture");
  });

  it("rejects missing tensors and tensors whose shape disagrees with the hyperparameters", async () => {
    const missing = await rejection(llamaPath, (_, tensors) => tensors.filter((tensor) => tensor.name !== "blk.1.ffn_up.weight"));
    expect(missing.message).toMatch(/blk\.1\.ffn_up\.weight: tensor missing; .* dims \[64, 192\]/);
    const shape = await rejection(llamaPath, (metadata) => void metadata.set("llama.feed_forward_length", { type: "uint32", value: 128 }));
    expect(shape.field).toBe("blk.0.ffn_gate.weight");
    expect(shape.message).toMatch(/has dims \[64, 192\], expected \[64, 128\] \(innermost first\)/);
    const biases = await rejection(qwenPath, (_, tensors) =>
      tensors.map((tensor) => (tensor.name === "blk.2.attn_k.bias" ? { ...tensor, dims: [128], bytes: new Uint8Array(512) } : tensor)),
    );
    expect(biases.field).toBe("blk.2.attn_k.bias");
  });

  it("rejects tokenizers llama.cpp would abort on or refuse", async () => {
    const noTokenizer = await rejection(llamaPath, (metadata) => void metadata.delete("tokenizer.ggml.model"));
    expect(noTokenizer.field).toBe("tokenizer.ggml.model");
    const duplicate = await rejection(llamaPath, (metadata) => {
      const tokens = [...(metadata.get("tokenizer.ggml.tokens")?.value as string[])];
      tokens[75] = "<s>";
      metadata.set("tokenizer.ggml.tokens", { type: "array", itemType: "string", value: tokens });
    });
    expect(duplicate.message).toMatch(/token 75 repeats token 1/);
    const sentencePiece = await rejection(llamaPath, (metadata) => void metadata.set("tokenizer.ggml.model", { type: "string", value: "llama" }));
    expect(sentencePiece.message).toMatch(/no byte token <0x00>/);
    const types = await rejection(llamaPath, (metadata) => void metadata.set("tokenizer.ggml.token_type", { type: "array", itemType: "int32", value: [1, 1] }));
    expect(types.message).toMatch(/has 2 entries for 259 tokens/);
    expect((await rejection(llamaPath, (metadata) => void metadata.delete("tokenizer.ggml.merges"))).field).toBe("tokenizer.ggml.merges");
    const bos = await rejection(llamaPath, (metadata) => void metadata.set("tokenizer.ggml.bos_token_id", { type: "uint32", value: 300 }));
    expect(bos.message).toMatch(/is 300, but the vocabulary has 259 tokens/);
    const vocabulary = await rejection(llamaPath, (metadata) => {
      const tokens = metadata.get("tokenizer.ggml.tokens")?.value as string[];
      metadata.set("tokenizer.ggml.tokens", { type: "array", itemType: "string", value: [...tokens, "extra"] });
      metadata.delete("tokenizer.ggml.token_type");
    });
    expect(vocabulary.field).toBe("token_embd.weight");
  });

  it("passes on GGUF errors for files that are not readable GGUF", async () => {
    await expect(validateModelFile(join(directory, "absent.gguf"))).rejects.toThrow(GgufFileNotFoundError);
    const text = join(directory, "notes.txt");
    await writeFile(text, "not a model");
    await expect(validateModelFile(text)).rejects.toThrow(NotGgufError);
  });
});
