import { readFile, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { InvalidInputError } from "../../../src/core/errors/index.js";
import { GgufReader } from "../../../src/gguf/gguf-reader.js";
import { createRandomLoraAdapter } from "../../../src/inference/model-files/create-random-lora-adapter.js";
import { createRandomModel } from "../../../src/inference/model-files/create-random-model.js";
import { validateLoraAdapter } from "../../../src/inference/model-files/validate-lora-adapter.js";

let directory: string;
let basePath: string;
beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), "selfplay-random-lora-"));
  basePath = (await createRandomModel({ path: join(directory, "base.gguf"), preset: "small", architecture: "qwen2", seed: 1 })).path;
});
afterAll(async () => {
  await rm(directory, { recursive: true, force: true });
});

describe("createRandomLoraAdapter", () => {
  it("adapts every attention and feed-forward matrix by default, with alpha = rank, and validates against its base", async () => {
    const path = join(directory, "default.gguf");
    const written = await createRandomLoraAdapter({ baseModelPath: basePath, path, rank: 4, seed: 3 });
    expect(written.alpha).toBe(4);
    // small: 4 blocks × 7 matrices.
    expect(written.baseTensorNames).toHaveLength(28);
    const validated = await validateLoraAdapter(path, basePath);
    // small qwen2 has 2 KV heads of 32: attn_k is [out 64, in 128].
    expect(validated.tensors.find((tensor) => tensor.baseName === "blk.3.attn_k.weight")).toEqual({ baseName: "blk.3.attn_k.weight", inputLength: 128, outputLength: 64, rank: 4 });
  });

  it("is reproducible from the seed, differs across seeds, and has a non-zero B with the requested spread", async () => {
    const make = (name: string, seed: number) =>
      createRandomLoraAdapter({ baseModelPath: basePath, path: join(directory, name), rank: 2, alpha: 1, seed, targets: ["attn_v"], initialisationScale: 0.5 });
    await make("first.gguf", 11);
    await make("again.gguf", 11);
    await make("other.gguf", 12);
    const first = await readFile(join(directory, "first.gguf"));
    expect(first.equals(await readFile(join(directory, "again.gguf")))).toBe(true);
    expect(first.equals(await readFile(join(directory, "other.gguf")))).toBe(false);
    const reader = await GgufReader.open(join(directory, "first.gguf"));
    try {
      expect(reader.tensors.map((tensor) => tensor.name)).toEqual(
        [0, 1, 2, 3].flatMap((block) => [`blk.${block}.attn_v.weight.lora_a`, `blk.${block}.attn_v.weight.lora_b`]),
      );
      const b = await reader.readTensor("blk.0.attn_v.weight.lora_b");
      const deviation = Math.sqrt(b.reduce((sum, value) => sum + value * value, 0) / b.length);
      expect(deviation).toBeGreaterThan(0.4);
      expect(deviation).toBeLessThan(0.6);
    } finally {
      await reader.close();
    }
  });

  it("refuses a target the base does not have, naming the ones it has", async () => {
    const error = await createRandomLoraAdapter({ baseModelPath: basePath, path: join(directory, "x.gguf"), rank: 1, seed: 0, targets: ["attn_q", "output"] }).catch(
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(InvalidInputError);
    // The small model ties its output projection, so it has no output.weight.
    expect((error as Error).message).toBe('targets: got "output"; expected kinds of matrix the base model has: attn_q, attn_k, attn_v, attn_output, ffn_gate, ffn_down, ffn_up');
  });
});
