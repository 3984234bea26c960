import { existsSync } from "node:fs";
import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { InvalidInputError } from "../../../src/core/errors/index.js";
import { GgufReader } from "../../../src/gguf/gguf-reader.js";
import { createRandomModel } from "../../../src/inference/model-files/create-random-model.js";
import { readLoraAdapter } from "../../../src/inference/model-files/read-lora-adapter.js";
import { validateModelFile } from "../../../src/inference/model-files/validate-model-file.js";
import { writeLoraAdapter } from "../../../src/inference/model-files/write-lora-adapter.js";

let directory: string;
let basePath: string;
beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), "selfplay-write-lora-"));
  basePath = (await createRandomModel({ path: join(directory, "base.gguf"), preset: "tiny", architecture: "qwen2", seed: 1 })).path;
});
afterAll(async () => {
  await rm(directory, { recursive: true, force: true });
});

/** 0, 1, 2, ... as float32: every element distinct, so a transposition shows. */
const counting = (length: number, offset = 0) => Float32Array.from({ length }, (_, index) => offset + index / 8);

describe("writeLoraAdapter", () => {
  it("writes llama.cpp's keys and lora_a dims [in, r], lora_b dims [r, out], and reads back the same values", async () => {
    // tiny qwen2: attn_q is [out 64, in 64]; ffn_down is [out 64, in 192].
    const rank = 3;
    const queryA = counting(rank * 64);
    const queryB = counting(64 * rank, 100);
    const downA = counting(rank * 192, 200);
    const downB = counting(64 * rank, 300);
    const path = join(directory, "round-trip.gguf");
    const written = await writeLoraAdapter(path, {
      base: basePath,
      alpha: 0.1,
      rank,
      name: "round trip",
      // Out of base order on purpose: the file follows the base model's order.
      tensors: { "blk.1.ffn_down.weight": { a: downA, b: downB }, "blk.0.attn_q.weight": { a: queryA, b: queryB } },
    });
    expect(written).toEqual({ path, architecture: "qwen2", alpha: Math.fround(0.1), rank, baseTensorNames: ["blk.0.attn_q.weight", "blk.1.ffn_down.weight"] });

    const reader = await GgufReader.open(path);
    try {
      expect(Object.fromEntries(reader.metadata)).toEqual({
        "general.architecture": { type: "string", value: "qwen2" },
        "general.type": { type: "string", value: "adapter" },
        "adapter.type": { type: "string", value: "lora" },
        "adapter.lora.alpha": { type: "float32", value: Math.fround(0.1) },
        "general.name": { type: "string", value: "round trip" },
      });
      expect(reader.tensors.map(({ name, type, dims }) => ({ name, type, dims }))).toEqual([
        { name: "blk.0.attn_q.weight.lora_a", type: "f32", dims: [64, rank] },
        { name: "blk.0.attn_q.weight.lora_b", type: "f32", dims: [rank, 64] },
        { name: "blk.1.ffn_down.weight.lora_a", type: "f32", dims: [192, rank] },
        { name: "blk.1.ffn_down.weight.lora_b", type: "f32", dims: [rank, 64] },
      ]);
      expect(await reader.readTensor("blk.0.attn_q.weight.lora_a")).toEqual(queryA);
      expect(await reader.readTensor("blk.0.attn_q.weight.lora_b")).toEqual(queryB);
      expect(await reader.readTensor("blk.1.ffn_down.weight.lora_a")).toEqual(downA);
      expect(await reader.readTensor("blk.1.ffn_down.weight.lora_b")).toEqual(downB);
    } finally {
      await reader.close();
    }
    expect(await readLoraAdapter(path)).toEqual({
      path,
      architecture: "qwen2",
      alpha: Math.fround(0.1),
      name: "round trip",
      tensors: [
        { baseName: "blk.0.attn_q.weight", inputLength: 64, outputLength: 64, rank },
        { baseName: "blk.1.ffn_down.weight", inputLength: 192, outputLength: 64, rank },
      ],
    });
  });

  it("takes the base's hyperparameters instead of its file", async () => {
    const { hyperparameters } = await validateModelFile(basePath);
    const path = join(directory, "from-hyperparameters.gguf");
    // tiny qwen2 has 4 KV heads of 16: attn_v is [out 64, in 64].
    await writeLoraAdapter(path, { base: hyperparameters, alpha: 2, rank: 1, tensors: { "blk.1.attn_v.weight": { a: counting(64), b: counting(64) } } });
    expect((await readLoraAdapter(path)).tensors).toEqual([{ baseName: "blk.1.attn_v.weight", inputLength: 64, outputLength: 64, rank: 1 }]);
  });

  it.each([
    ["a tensor the base lacks", { "blk.7.attn_q.weight": { a: counting(64), b: counting(64) } }, /tensors\["blk\.7\.attn_q\.weight"\]: expected names of the base model's matrices/],
    ["the token embedding", { "token_embd.weight": { a: counting(64), b: counting(259) } }, /does not adapt the token embedding/],
    ["a norm (not a matrix)", { "blk.0.attn_norm.weight": { a: counting(64), b: counting(64) } }, /expected names of the base model's matrices/],
    // ffn_up is [out 192, in 64].
    ["A of the wrong length", { "blk.0.ffn_up.weight": { a: counting(192), b: counting(192) } }, /\.a\.length: got 192; expected 64 \(row-major \[rank 1, in 64\]\)/],
    ["B of the wrong length", { "blk.0.ffn_up.weight": { a: counting(64), b: counting(64) } }, /\.b\.length: got 64; expected 192 \(row-major \[out 192, rank 1\]\)/],
  ])("refuses %s and writes nothing", async (_, tensors, message) => {
    const path = join(directory, "refused.gguf");
    const error = await writeLoraAdapter(path, { base: basePath, alpha: 1, rank: 1, tensors }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(InvalidInputError);
    expect((error as Error).message).toMatch(message);
    expect(existsSync(path)).toBe(false);
  });

  it("refuses bad options: no tensors, rank 0, alpha 0 or beyond float32, NaN values", async () => {
    const pair = { "blk.0.attn_q.weight": { a: counting(64), b: counting(64) } };
    const attempt = (options: Record<string, unknown>) =>
      writeLoraAdapter(join(directory, "bad.gguf"), { base: basePath, alpha: 1, rank: 1, tensors: pair, ...options }).catch((caught: unknown) => caught);
    expect(((await attempt({ tensors: {} })) as Error).message).toMatch(/^tensors: .*at least one adapted matrix/);
    expect(((await attempt({ rank: 0 })) as Error).message).toMatch(/^rank: /);
    expect(((await attempt({ alpha: 0 })) as Error).message).toMatch(/^alpha: /);
    expect(((await attempt({ alpha: 1e40 })) as Error).message).toMatch(/^alpha: .*a positive number a float32 can hold/);
    expect(((await attempt({ base: { architecture: "gpt2" } })) as Error).message).toMatch(/^base: /);
    const nan = counting(64);
    nan[5] = Number.NaN;
    expect(((await attempt({ tensors: { "blk.0.attn_q.weight": { a: nan, b: counting(64) } } })) as Error).message).toMatch(/values\[5\]: .*a finite number/);
    expect((await readdir(directory)).filter((name) => name.startsWith("bad.gguf"))).toEqual([]);
  });
});
