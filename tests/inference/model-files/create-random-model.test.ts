import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { InvalidInputError } from "../../../src/core/errors/index.js";
import { GgufReader } from "../../../src/gguf/gguf-reader.js";
import { createRandomModel } from "../../../src/inference/model-files/create-random-model.js";
import { gpt2ByteCharacters } from "../../../src/inference/model-files/byte-vocabulary.js";
import { MODEL_PRESETS } from "../../../src/inference/model-files/model-presets.js";

let directory: string;
beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), "selfplay-random-model-"));
});
afterAll(async () => {
  await rm(directory, { recursive: true, force: true });
});

async function withReader<T>(path: string, use: (reader: GgufReader) => Promise<T>): Promise<T> {
  const reader = await GgufReader.open(path);
  try {
    return await use(reader);
  } finally {
    await reader.close();
  }
}

describe("MODEL_PRESETS", () => {
  it("holds the documented sizes", () => {
    expect(MODEL_PRESETS).toEqual({
      tiny: { embeddingLength: 64, blockCount: 2, headCount: 4, headCountKv: 4, feedForwardLength: 192, contextLength: 256 },
      small: { embeddingLength: 128, blockCount: 4, headCount: 4, headCountKv: 2, feedForwardLength: 384, contextLength: 256 },
      medium: { embeddingLength: 256, blockCount: 4, headCount: 4, headCountKv: 2, feedForwardLength: 768, contextLength: 512 },
      "qwen2-0.5b": { embeddingLength: 896, blockCount: 24, headCount: 14, headCountKv: 2, feedForwardLength: 4864, contextLength: 512, vocabularySize: 151_936 },
    });
  });
});

describe("gpt2ByteCharacters", () => {
  it("is GPT-2's byte-to-unicode table", () => {
    const characters = gpt2ByteCharacters();
    expect(new Set(characters).size).toBe(256);
    expect(characters[0x41]).toBe("A");
    expect(characters[0x20]).toBe("Ġ"); // space, byte 32, is the 33rd unprintable byte: U+0100 + 32
    expect(characters[0x0a]).toBe("Ċ");
    expect(characters[0x00]).toBe("Ā");
    expect(characters[0xad]).toBe("Ń"); // the soft hyphen is the last unprintable byte: U+0100 + 67
    expect(characters[0xff]).toBe("ÿ");
  });
});

describe("createRandomModel", () => {
  it("writes the llama tensors with llama.cpp's shapes (dims innermost first) and the byte vocabulary", async () => {
    const path = join(directory, "tiny-llama.gguf");
    const created = await createRandomModel({ path, preset: "tiny", architecture: "llama", seed: 7 });
    // token_embd 64·259 + output_norm 64 + 2 blocks × (2 norms 128 + q,k,v,o 4·4096 + 3 ffn 3·12288)
    expect(created.parameterCount).toBe(64 * 259 + 64 + 2 * (128 + 4 * 4096 + 3 * 12288));
    await withReader(path, async (reader) => {
      const dims = Object.fromEntries(reader.tensors.map((tensor) => [tensor.name, tensor.dims]));
      expect(dims).toMatchObject({
        "token_embd.weight": [64, 259],
        "output_norm.weight": [64],
        "blk.1.attn_norm.weight": [64],
        "blk.1.attn_q.weight": [64, 64],
        "blk.1.attn_k.weight": [64, 64],
        "blk.1.attn_v.weight": [64, 64],
        "blk.1.attn_output.weight": [64, 64],
        "blk.1.ffn_norm.weight": [64],
        "blk.1.ffn_gate.weight": [64, 192],
        "blk.1.ffn_up.weight": [64, 192],
        "blk.1.ffn_down.weight": [192, 64],
      });
      expect(reader.tensors).toHaveLength(2 + 2 * 9);
      expect(reader.findTensor("output.weight")).toBeUndefined();
      const text = (key: string) => reader.metadata.get(key)?.value;
      expect(text("general.architecture")).toBe("llama");
      expect(text("general.name")).toBe("selfplay-tiny-llama");
      expect(text("llama.feed_forward_length")).toBe(192);
      expect(text("llama.rope.dimension_count")).toBe(16);
      expect(text("tokenizer.ggml.model")).toBe("gpt2");
      expect(text("tokenizer.ggml.pre")).toBe("default");
      expect(text("tokenizer.ggml.merges")).toEqual([]);
      const tokens = text("tokenizer.ggml.tokens") as string[];
      expect(tokens.slice(0, 3)).toEqual(["<pad>", "<s>", "</s>"]);
      expect(tokens[72 + 3]).toBe("H");
      expect(tokens).toHaveLength(259);
      expect(text("tokenizer.ggml.token_type")).toEqual([3, 3, 3, ...new Array(256).fill(1)]);
      expect([text("tokenizer.ggml.padding_token_id"), text("tokenizer.ggml.bos_token_id"), text("tokenizer.ggml.eos_token_id")]).toEqual([0, 1, 2]);

      expect(Array.from(await reader.readTensor("blk.0.attn_norm.weight"))).toEqual(new Array(64).fill(1));
      const weights = await reader.readTensor("blk.0.ffn_gate.weight");
      const mean = weights.reduce((sum, value) => sum + value, 0) / weights.length;
      const deviation = Math.sqrt(weights.reduce((sum, value) => sum + (value - mean) ** 2, 0) / weights.length);
      expect(Math.abs(mean)).toBeLessThan(0.001);
      expect(deviation).toBeGreaterThan(0.019);
      expect(deviation).toBeLessThan(0.021);
    });
  });

  it("writes qwen2 with grouped-query attention and zero q/k/v biases", async () => {
    const path = join(directory, "small-qwen2.gguf");
    await createRandomModel({ path, preset: "small", architecture: "qwen2", seed: 7 });
    await withReader(path, async (reader) => {
      // 4 heads of 32; 2 key/value heads → k and v are 64 wide.
      expect(reader.tensor("blk.3.attn_q.weight").dims).toEqual([128, 128]);
      expect(reader.tensor("blk.3.attn_k.weight").dims).toEqual([128, 64]);
      expect(reader.tensor("blk.3.attn_v.bias").dims).toEqual([64]);
      expect(reader.tensor("blk.3.attn_q.bias").dims).toEqual([128]);
      expect(Array.from(await reader.readTensor("blk.0.attn_k.bias"))).toEqual(new Array(64).fill(0));
      expect(reader.metadata.get("qwen2.attention.head_count_kv")).toEqual({ type: "uint32", value: 2 });
      expect(reader.tensors).toHaveLength(2 + 4 * 12);
    });
  });

  it("is deterministic in its seed, and every tensor has its own stream", async () => {
    const first = join(directory, "seed-1a.gguf");
    const again = join(directory, "seed-1b.gguf");
    const other = join(directory, "seed-2.gguf");
    await createRandomModel({ path: first, preset: "tiny", architecture: "llama", seed: 1 });
    await createRandomModel({ path: again, preset: "tiny", architecture: "llama", seed: 1 });
    await createRandomModel({ path: other, preset: "tiny", architecture: "llama", seed: 2 });
    // Buffer.equals: vitest's deep equality walks half a megabyte byte by byte.
    expect((await readFile(again)).equals(await readFile(first))).toBe(true);
    expect((await readFile(other)).equals(await readFile(first))).toBe(false);
    const [q, k] = await withReader(first, (reader) => Promise.all([reader.readTensor("blk.0.attn_q.weight"), reader.readTensor("blk.0.attn_k.weight")]));
    expect(q).not.toEqual(k);
  });

  it("stores matrices as f16 or q8_0 and can untie the output projection", async () => {
    const path = join(directory, "q8.gguf");
    const created = await createRandomModel({ path, preset: "tiny", architecture: "qwen2", seed: 3, weightType: "q8_0", untiedOutput: true, name: "custom" });
    await withReader(path, async (reader) => {
      expect(reader.tensor("output.weight")).toMatchObject({ type: "q8_0", dims: [64, 259] });
      expect(reader.tensor("blk.0.ffn_down.weight").type).toBe("q8_0");
      expect(reader.tensor("blk.0.attn_norm.weight").type).toBe("f32");
      expect(reader.tensor("blk.0.attn_q.bias").type).toBe("f32");
      expect(reader.metadata.get("general.name")?.value).toBe("custom");
      expect(reader.metadata.get("general.file_type")?.value).toBe(7);
    });
    expect(created.parameterCount).toBe(64 * 259 * 2 + 64 + 2 * (128 + 4 * 4096 + 3 * 64 + 3 * 12288));
    const f16 = join(directory, "f16.gguf");
    await createRandomModel({ path: f16, preset: "tiny", architecture: "llama", seed: 3, weightType: "f16" });
    await withReader(f16, async (reader) => expect(reader.tensor("token_embd.weight").type).toBe("f16"));
  });

  it("refuses invalid options", async () => {
    const path = join(directory, "never.gguf");
    await expect(createRandomModel({ path, preset: "huge" as "tiny", architecture: "llama", seed: 1 })).rejects.toThrow(InvalidInputError);
    await expect(createRandomModel({ path, preset: "tiny", architecture: "gpt2" as "llama", seed: 1 })).rejects.toThrow(/architecture/);
    await expect(createRandomModel({ path, preset: "tiny", architecture: "llama", seed: -1 })).rejects.toThrow(/seed/);
  });
});
