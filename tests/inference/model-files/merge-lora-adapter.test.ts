import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AdapterMismatchError } from "../../../src/inference/errors/index.js";
import { UnsupportedTensorTypeError } from "../../../src/gguf/errors/index.js";
import { GgufReader } from "../../../src/gguf/gguf-reader.js";
import { createRandomLoraAdapter } from "../../../src/inference/model-files/create-random-lora-adapter.js";
import { createRandomModel } from "../../../src/inference/model-files/create-random-model.js";
import { mergeLoraAdapter } from "../../../src/inference/model-files/merge-lora-adapter.js";
import { validateModelFile } from "../../../src/inference/model-files/validate-model-file.js";
import { writeLoraAdapter } from "../../../src/inference/model-files/write-lora-adapter.js";
import { rewriteGguf } from "./rewrite-gguf.js";

let directory: string;
let basePath: string;
beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), "selfplay-merge-lora-"));
  basePath = (await createRandomModel({ path: join(directory, "base.gguf"), preset: "tiny", architecture: "llama", seed: 4 })).path;
});
afterAll(async () => {
  await rm(directory, { recursive: true, force: true });
});

async function readAll(path: string): Promise<{ metadata: Map<string, unknown>; tensors: Map<string, { type: string; dims: readonly number[]; values: Float32Array }> }> {
  const reader = await GgufReader.open(path);
  try {
    const tensors = new Map<string, { type: string; dims: readonly number[]; values: Float32Array }>();
    for (const { name, type, dims } of reader.tensors) tensors.set(name, { type, dims, values: await reader.readTensor(name) });
    return { metadata: new Map(reader.metadata), tensors };
  } finally {
    await reader.close();
  }
}

describe("mergeLoraAdapter", () => {
  it("adds scale · (alpha / r) · B·A to the adapted matrix only, worked by hand", async () => {
    // attn_v is [out 64, in 64]. Rank 2: A's rows are 2·e₃ and e₁₀; B's only non-zero entries are
    // B[5][0] = 3 and B[7][1] = −1. So B·A has (5, 3) = 6 and (7, 10) = −1, and zeros elsewhere.
    const a = new Float32Array(2 * 64);
    a[0 * 64 + 3] = 2;
    a[1 * 64 + 10] = 1;
    const b = new Float32Array(64 * 2);
    b[5 * 2 + 0] = 3;
    b[7 * 2 + 1] = -1;
    const adapterPath = join(directory, "by-hand.gguf");
    await writeLoraAdapter(adapterPath, { base: basePath, alpha: 1, rank: 2, tensors: { "blk.1.attn_v.weight": { a, b } } });

    const out = join(directory, "merged-by-hand.gguf");
    // alpha / r = 0.5 and scale 4: the update is 2 · B·A, so +12 at (5, 3) and −2 at (7, 10).
    expect(await mergeLoraAdapter({ baseModelPath: basePath, adapterPath, scale: 4, out })).toEqual({ path: out, adaptedTensors: ["blk.1.attn_v.weight"] });
    const base = await readAll(basePath);
    const merged = await readAll(out);
    const before = base.tensors.get("blk.1.attn_v.weight")?.values as Float32Array;
    const after = merged.tensors.get("blk.1.attn_v.weight")?.values as Float32Array;
    const expected = Float32Array.from(before);
    expected[5 * 64 + 3] = Math.fround((before[5 * 64 + 3] as number) + 12);
    expected[7 * 64 + 10] = Math.fround((before[7 * 64 + 10] as number) - 2);
    expect(after).toEqual(expected);
    for (const [name, tensor] of base.tensors) {
      if (name !== "blk.1.attn_v.weight") expect(merged.tensors.get(name), name).toEqual(tensor);
    }
    expect(merged.metadata).toEqual(base.metadata);
    await validateModelFile(out);
  });

  it("matches W + scale·(alpha/r)·B·A computed naively for a random adapter on a q8_0 base, writing all-f32", async () => {
    const quantised = (await createRandomModel({ path: join(directory, "q8.gguf"), preset: "tiny", architecture: "qwen2", seed: 2, weightType: "q8_0" })).path;
    const adapterPath = join(directory, "random.gguf");
    const rank = 3;
    await createRandomLoraAdapter({ baseModelPath: quantised, path: adapterPath, rank, alpha: 5, seed: 9, targets: ["attn_k", "ffn_down"] });
    const out = join(directory, "merged-q8.gguf");
    const { adaptedTensors } = await mergeLoraAdapter({ baseModelPath: quantised, adapterPath, scale: -0.5, out });
    expect(adaptedTensors).toEqual(["blk.0.attn_k.weight", "blk.0.ffn_down.weight", "blk.1.attn_k.weight", "blk.1.ffn_down.weight"]);

    const base = await readAll(quantised);
    const adapter = await readAll(adapterPath);
    const merged = await readAll(out);
    expect(merged.metadata.get("general.file_type")).toEqual({ type: "uint32", value: 0 });
    expect(merged.metadata.has("general.quantization_version")).toBe(false);
    const factor = (-0.5 * Math.fround(5)) / rank;
    for (const [name, tensor] of merged.tensors) {
      const original = base.tensors.get(name);
      expect(tensor.type).toBe("f32");
      expect(tensor.dims).toEqual(original?.dims);
      if (!adaptedTensors.includes(name)) {
        expect(tensor.values, name).toEqual(original?.values);
        continue;
      }
      const [inputLength, outputLength] = tensor.dims as [number, number];
      const a = adapter.tensors.get(`${name}.lora_a`)?.values as Float32Array;
      const b = adapter.tensors.get(`${name}.lora_b`)?.values as Float32Array;
      let largestChange = 0;
      for (let row = 0; row < outputLength; row++) {
        for (let column = 0; column < inputLength; column++) {
          let product = 0;
          for (let inner = 0; inner < rank; inner++) product += (b[row * rank + inner] as number) * (a[inner * inputLength + column] as number);
          const index = row * inputLength + column;
          const expected = (original?.values[index] as number) + factor * product;
          expect(Math.abs((tensor.values[index] as number) - expected), `${name}[${row}][${column}]`).toBeLessThan(1e-6);
          largestChange = Math.max(largestChange, Math.abs((tensor.values[index] as number) - (original?.values[index] as number)));
        }
      }
      expect(largestChange, `${name} changed`).toBeGreaterThan(1e-4);
    }
  });

  it("validates before writing: a mismatched adapter or an unreadable base tensor leaves no output", async () => {
    const otherBase = (await createRandomModel({ path: join(directory, "qwen.gguf"), preset: "tiny", architecture: "qwen2", seed: 4 })).path;
    const adapterPath = join(directory, "for-qwen.gguf");
    await createRandomLoraAdapter({ baseModelPath: otherBase, path: adapterPath, rank: 1, seed: 1 });
    const out = join(directory, "never.gguf");
    await expect(mergeLoraAdapter({ baseModelPath: basePath, adapterPath, out })).rejects.toBeInstanceOf(AdapterMismatchError);
    expect(existsSync(out)).toBe(false);

    // i32 has f32's byte length, so the file stays well-formed, but no dequantiser reads it.
    const oddBase = await rewriteGguf(basePath, join(directory, "odd-type.gguf"), (_, tensors) =>
      tensors.map((tensor) => (tensor.name === "output_norm.weight" ? { ...tensor, type: "i32" } : tensor)),
    );
    const ownAdapter = join(directory, "own.gguf");
    await createRandomLoraAdapter({ baseModelPath: basePath, path: ownAdapter, rank: 1, seed: 1 });
    const error = await mergeLoraAdapter({ baseModelPath: oddBase, adapterPath: ownAdapter, out }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(UnsupportedTensorTypeError);
    expect((error as Error).message).toMatch(/odd-type\.gguf: tensor "output_norm\.weight" has type i32/);
    expect(existsSync(out)).toBe(false);
  });
});
