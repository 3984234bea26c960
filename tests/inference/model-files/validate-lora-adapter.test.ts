import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AdapterMismatchError, InvalidAdapterFileError, InvalidModelFileError } from "../../../src/inference/errors/index.js";
import { NotGgufError } from "../../../src/gguf/errors/index.js";
import type { GgufValue } from "../../../src/gguf/gguf-value.js";
import type { GgufBytesTensorInput } from "../../../src/gguf/write-gguf.js";
import { createRandomLoraAdapter } from "../../../src/inference/model-files/create-random-lora-adapter.js";
import { createRandomModel } from "../../../src/inference/model-files/create-random-model.js";
import { validateLoraAdapter } from "../../../src/inference/model-files/validate-lora-adapter.js";
import { rewriteGguf } from "./rewrite-gguf.js";

let directory: string;
let llamaPath: string;
let smallLlamaPath: string;
let adapterPath: string;
const RANK = 2;
beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), "selfplay-validate-lora-"));
  llamaPath = (await createRandomModel({ path: join(directory, "llama.gguf"), preset: "tiny", architecture: "llama", seed: 1 })).path;
  smallLlamaPath = (await createRandomModel({ path: join(directory, "small.gguf"), preset: "small", architecture: "llama", seed: 1 })).path;
  adapterPath = join(directory, "adapter.gguf");
  await createRandomLoraAdapter({ baseModelPath: llamaPath, path: adapterPath, rank: RANK, alpha: 4, seed: 1, targets: ["attn_q", "ffn_up"] });
});
afterAll(async () => {
  await rm(directory, { recursive: true, force: true });
});

let counter = 0;
type Edit = (metadata: Map<string, GgufValue>, tensors: GgufBytesTensorInput[]) => GgufBytesTensorInput[] | void;
const edited = (edit: Edit, source = adapterPath) => rewriteGguf(source, join(directory, `edited-${counter++}.gguf`), edit);

/** A zero f32 tensor with these dims, to stand in for one of the adapter's. */
const zeros = (name: string, dims: number[]): GgufBytesTensorInput => ({ name, dims, type: "f32", bytes: new Uint8Array(dims.reduce((product, size) => product * size, 4)) });
const replacing = (name: string, replacement: GgufBytesTensorInput) => (tensors: GgufBytesTensorInput[]) =>
  tensors.map((tensor) => (tensor.name === name ? replacement : tensor));

async function rejection<T extends Error>(kind: new (...args: never[]) => T, path: string, base = llamaPath): Promise<T> {
  const error = await validateLoraAdapter(path, base).catch((caught: unknown) => caught);
  expect(error).toBeInstanceOf(kind);
  expect((error as Error).message.startsWith(`${path}: `)).toBe(true);
  return error as T;
}

describe("validateLoraAdapter", () => {
  it("accepts an adapter made for the base and reports its pairs", async () => {
    const validated = await validateLoraAdapter(adapterPath, llamaPath);
    expect(validated).toMatchObject({ path: adapterPath, baseModelPath: llamaPath, architecture: "llama", alpha: 4, name: undefined });
    expect(validated.tensors).toEqual([
      { baseName: "blk.0.attn_q.weight", inputLength: 64, outputLength: 64, rank: RANK },
      { baseName: "blk.0.ffn_up.weight", inputLength: 64, outputLength: 192, rank: RANK },
      { baseName: "blk.1.attn_q.weight", inputLength: 64, outputLength: 64, rank: RANK },
      { baseName: "blk.1.ffn_up.weight", inputLength: 64, outputLength: 192, rank: RANK },
    ]);
  });

  it("rejects another architecture", async () => {
    const path = await edited((metadata) => void metadata.set("general.architecture", { type: "string", value: "qwen2" }));
    const error = await rejection(AdapterMismatchError, path);
    expect(error.field).toBe("general.architecture");
    expect(error.message).toContain(`is "qwen2" but the base model is "llama" (base model ${llamaPath})`);
  });

  it("rejects a pair for a tensor the base does not have, or that is not a matrix", async () => {
    const rename = (to: string) =>
      edited((_, tensors) => tensors.map((tensor) => ({ ...tensor, name: tensor.name.replace("blk.1.attn_q.weight", to) })));
    const unknown = await rejection(AdapterMismatchError, await rename("blk.5.attn_q.weight"));
    expect(unknown.field).toBe("blk.5.attn_q.weight.lora_a");
    expect(unknown.message).toMatch(/adapts "blk\.5\.attn_q\.weight", which is not a matrix of the base model/);
    const norm = await rejection(AdapterMismatchError, await rename("blk.1.attn_norm.weight"));
    expect(norm.field).toBe("blk.1.attn_norm.weight.lora_a");
  });

  it("rejects an adapter for a wider model (lora_a's in differs)", async () => {
    const wide = join(directory, "wide.gguf");
    await createRandomLoraAdapter({ baseModelPath: smallLlamaPath, path: wide, rank: RANK, seed: 1, targets: ["attn_q"] });
    const error = await rejection(AdapterMismatchError, wide);
    expect(error.field).toBe("blk.0.attn_q.weight.lora_a");
    expect(error.message).toMatch(/has in = 128 \(dims\[0\]\) but blk\.0\.attn_q\.weight has in = 64/);
  });

  it("rejects a lora_b whose out differs from the base's", async () => {
    const path = await edited((_, tensors) => replacing("blk.0.ffn_up.weight.lora_b", zeros("blk.0.ffn_up.weight.lora_b", [RANK, 64]))(tensors));
    const error = await rejection(AdapterMismatchError, path);
    expect(error.field).toBe("blk.0.ffn_up.weight.lora_b");
    expect(error.message).toMatch(/has out = 64 \(dims\[1\]\) but blk\.0\.ffn_up\.weight has out = 192/);
  });

  it("rejects pairs whose ranks disagree, or a lora_a stored untransposed", async () => {
    const ranks = await edited((_, tensors) => replacing("blk.0.attn_q.weight.lora_b", zeros("blk.0.attn_q.weight.lora_b", [RANK + 1, 64]))(tensors));
    const error = await rejection(InvalidAdapterFileError, ranks);
    expect(error.field).toBe("blk.0.attn_q.weight.lora_a");
    expect(error.message).toMatch(/has rank 2 \(dims \[64, 2\]\) but blk\.0\.attn_q\.weight\.lora_b has rank 3/);
    // The old "finetune" layout: lora_a as dims [rank, in].
    const untransposed = await edited((_, tensors) => replacing("blk.0.ffn_up.weight.lora_a", zeros("blk.0.ffn_up.weight.lora_a", [RANK, 64]))(tensors));
    expect((await rejection(InvalidAdapterFileError, untransposed)).message).toMatch(/lora_a must be dims \[in, rank\] and lora_b dims \[rank, out\]/);
  });

  it("rejects a missing or mistyped alpha (llama.cpp aborts on a non-float32 one)", async () => {
    const missing = await rejection(InvalidAdapterFileError, await edited((metadata) => void metadata.delete("adapter.lora.alpha")));
    expect(missing.field).toBe("adapter.lora.alpha");
    expect(missing.message).toMatch(/missing; a LoRA adapter needs its alpha/);
    const float64 = await rejection(InvalidAdapterFileError, await edited((metadata) => void metadata.set("adapter.lora.alpha", { type: "float64", value: 4 })));
    expect(float64.message).toMatch(/is a float64, expected a float32 \(llama\.cpp aborts/);
    const zero = await rejection(InvalidAdapterFileError, await edited((metadata) => void metadata.set("adapter.lora.alpha", { type: "float32", value: 0 })));
    expect(zero.message).toMatch(/is 0, expected a positive finite number/);
  });

  it("rejects a file that is not an adapter: a model, another general.type or adapter.type", async () => {
    const model = await rejection(InvalidAdapterFileError, llamaPath);
    expect(model.field).toBe("general.type");
    expect(model.message).toMatch(/missing; an adapter file needs it \(the string "adapter"\)/);
    const typed = await rejection(InvalidAdapterFileError, await edited((metadata) => void metadata.set("general.type", { type: "string", value: "model" })));
    expect(typed.message).toMatch(/is "model", not "adapter": this is not an adapter file/);
    const wrongType = await rejection(InvalidAdapterFileError, await edited((metadata) => void metadata.set("general.type", { type: "uint32", value: 1 })));
    expect(wrongType.message).toMatch(/general\.type: is a uint32, expected a string/);
    const controlVector = await rejection(InvalidAdapterFileError, await edited((metadata) => void metadata.set("adapter.type", { type: "string", value: "control_vector" })));
    expect(controlVector.message).toMatch(/adapter\.type: is "control_vector"; selfplay supports "lora" adapters only/);
    const noArchitecture = await rejection(InvalidAdapterFileError, await edited((metadata) => void metadata.delete("general.architecture")));
    expect(noArchitecture.field).toBe("general.architecture");
    const activated = await edited((metadata) => void metadata.set("adapter.alora.invocation_tokens", { type: "array", itemType: "uint32", value: [5] }));
    expect((await rejection(InvalidAdapterFileError, activated)).message).toMatch(/activated LoRA .* is not supported/);
  });

  it("rejects unpaired, oddly named, norm, token-embedding and empty tensor lists", async () => {
    const unpaired = await rejection(InvalidAdapterFileError, await edited((_, tensors) => tensors.filter((tensor) => tensor.name !== "blk.1.ffn_up.weight.lora_b")));
    expect(unpaired.field).toBe("blk.1.ffn_up.weight.lora_a");
    expect(unpaired.message).toMatch(/has no blk\.1\.ffn_up\.weight\.lora_b to pair with/);
    const suffix = await rejection(InvalidAdapterFileError, await edited((_, tensors) => [...tensors, zeros("blk.0.attn_q.weight.lora_c", [4])]));
    expect(suffix.message).toMatch(/blk\.0\.attn_q\.weight\.lora_c: has an unexpected suffix/);
    const norm = await rejection(InvalidAdapterFileError, await edited((_, tensors) => [...tensors, zeros("blk.0.attn_norm.weight", [64])]));
    expect(norm.message).toMatch(/llama\.cpp ignores norm tensors in adapters/);
    const embedding = await edited((_, tensors) => [...tensors, zeros("token_embd.weight.lora_a", [64, RANK]), zeros("token_embd.weight.lora_b", [RANK, 259])]);
    expect((await rejection(InvalidAdapterFileError, embedding)).message).toMatch(/does not support adapting the token embedding/);
    expect((await rejection(InvalidAdapterFileError, await edited(() => []))).message).toMatch(/tensors: none; an adapter needs at least one/);
  });

  it("rejects a base that is not a valid model, and files that are not GGUF", async () => {
    const brokenBase = await edited((metadata) => void metadata.delete("llama.feed_forward_length"), llamaPath);
    const error = await validateLoraAdapter(adapterPath, brokenBase).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(InvalidModelFileError);
    expect((error as Error).message).toContain(`${brokenBase}: llama.feed_forward_length: missing`);
    const text = join(directory, "notes.gguf");
    await writeFile(text, "not an adapter");
    await expect(validateLoraAdapter(text, llamaPath)).rejects.toBeInstanceOf(NotGgufError);
  });
});
