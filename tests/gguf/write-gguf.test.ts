import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { InvalidInputError } from "../../src/core/errors/index.js";
import { GgufReader } from "../../src/gguf/gguf-reader.js";
import type { GgufValue } from "../../src/gguf/gguf-value.js";
import { dimsFromRowMajorShape, rowMajorShapeFromDims } from "../../src/gguf/row-major-shape.js";
import { writeGguf } from "../../src/gguf/write-gguf.js";

let directory: string;
beforeEach(async () => {
  directory = await mkdtemp(join(tmpdir(), "selfplay-gguf-write-"));
});
afterEach(async () => {
  await rm(directory, { recursive: true, force: true });
});

/** One value of every GGUF metadata type, at its extremes where that matters. */
const EVERY_TYPE: Record<string, GgufValue> = {
  "test.uint8": { type: "uint8", value: 255 },
  "test.int8": { type: "int8", value: -128 },
  "test.uint16": { type: "uint16", value: 65535 },
  "test.int16": { type: "int16", value: -32768 },
  "test.uint32": { type: "uint32", value: 4_294_967_295 },
  "test.int32": { type: "int32", value: -2_147_483_648 },
  "test.float32": { type: "float32", value: 0.5 },
  "test.bool.true": { type: "bool", value: true },
  "test.bool.false": { type: "bool", value: false },
  "test.string": { type: "string", value: "wörld ✓ \u0000 end" },
  "test.empty_string": { type: "string", value: "" },
  "test.uint64": { type: "uint64", value: 18_446_744_073_709_551_615n },
  "test.int64": { type: "int64", value: -9_223_372_036_854_775_808n },
  "test.float64": { type: "float64", value: 0.1 },
  "test.array.uint8": { type: "array", itemType: "uint8", value: [0, 1, 255] },
  "test.array.int32": { type: "array", itemType: "int32", value: [-1, 0, 7] },
  "test.array.float32": { type: "array", itemType: "float32", value: [1.5, -2.25] },
  "test.array.bool": { type: "array", itemType: "bool", value: [true, false] },
  "test.array.string": { type: "array", itemType: "string", value: ["a", "", "Ġthe"] },
  "test.array.uint64": { type: "array", itemType: "uint64", value: [1n, 2n ** 60n] },
  "test.array.empty": { type: "array", itemType: "string", value: [] },
  "test.array.nested": {
    type: "array",
    itemType: "array",
    value: [
      { type: "array", itemType: "int16", value: [1, -2] },
      { type: "array", itemType: "array", value: [{ type: "array", itemType: "string", value: ["deep"] }] },
    ],
  },
};

describe("writeGguf → GgufReader", () => {
  it("round-trips every metadata type exactly, in order", async () => {
    const path = join(directory, "metadata.gguf");
    await writeGguf(path, { metadata: EVERY_TYPE, tensors: [] });
    const reader = await GgufReader.open(path);
    try {
      expect(reader.version).toBe(3);
      expect([...reader.metadata.keys()]).toEqual(Object.keys(EVERY_TYPE));
      expect(Object.fromEntries(reader.metadata)).toEqual(EVERY_TYPE);
      expect(reader.tensors).toEqual([]);
    } finally {
      await reader.close();
    }
  });

  it("round-trips a header larger than the reader's and writer's buffers (a 100k-token vocabulary)", async () => {
    const path = join(directory, "vocabulary.gguf");
    const tokens = Array.from({ length: 100_000 }, (_, index) => `token-${index}-ü`);
    const types = Array.from({ length: 100_000 }, (_, index) => index % 7);
    await writeGguf(path, {
      metadata: {
        "tokenizer.ggml.tokens": { type: "array", itemType: "string", value: tokens },
        "tokenizer.ggml.token_type": { type: "array", itemType: "int32", value: types },
      },
      tensors: [{ name: "after", dims: [2], type: "f32", values: new Float32Array([3, 4]) }],
    });
    const reader = await GgufReader.open(path);
    try {
      expect(reader.dataOffset).toBeGreaterThan(2 * 1024 * 1024);
      const readTokens = reader.metadata.get("tokenizer.ggml.tokens");
      const readTypes = reader.metadata.get("tokenizer.ggml.token_type");
      expect(readTokens).toMatchObject({ type: "array", itemType: "string" });
      expect(readTypes).toMatchObject({ type: "array", itemType: "int32" });
      // Joined, because deep equality over 100k items is slow.
      expect((readTokens?.value as string[]).join("\n")).toBe(tokens.join("\n"));
      expect((readTypes?.value as number[]).join()).toBe(types.join());
      expect(await reader.readTensor("after")).toEqual(new Float32Array([3, 4]));
    } finally {
      await reader.close();
    }
  });

  it("round-trips f32 exactly and f16 exactly for values f16 represents", async () => {
    const path = join(directory, "floats.gguf");
    const f32 = Float32Array.from({ length: 6 }, (_, index) => Math.fround(Math.PI * (index - 2.5)));
    const f16 = new Float32Array([0, -0, 1, -1.25, 65504, 2 ** -24, 2 ** -14, 0.099975586, -3.140625, 1000.5, 7, -0.5]);
    await writeGguf(path, {
      metadata: { "general.architecture": { type: "string", value: "test" } },
      tensors: [
        { name: "a", dims: dimsFromRowMajorShape([2, 3]), type: "f32", values: f32 },
        { name: "b", dims: [12], type: "f16", values: () => f16 },
      ],
    });
    const reader = await GgufReader.open(path);
    try {
      expect(reader.tensor("a")).toMatchObject({ type: "f32", dims: [3, 2], elementCount: 6, byteLength: 24 });
      expect(rowMajorShapeFromDims(reader.tensor("a").dims)).toEqual([2, 3]);
      expect(await reader.readTensor("a")).toEqual(f32);
      expect(reader.tensor("b")).toMatchObject({ type: "f16", dims: [12], byteLength: 24 });
      expect(await reader.readTensor("b")).toEqual(f16);
      // Every tensor starts on the 32-byte alignment.
      for (const tensor of reader.tensors) expect(tensor.fileOffset % 32).toBe(0);
    } finally {
      await reader.close();
    }
  });

  it("rounds f16 to the nearest representable value", async () => {
    const path = join(directory, "rounding.gguf");
    // 1 + 2^-11 is halfway between 1 and 1 + 2^-10: ties go to the even mantissa (1).
    const values = new Float32Array([1 + 2 ** -11, 1 + 3 * 2 ** -11, 70000, 1e-9]);
    await writeGguf(path, { metadata: {}, tensors: [{ name: "t", dims: [4], type: "f16", values }] });
    const reader = await GgufReader.open(path);
    try {
      expect(Array.from(await reader.readTensor("t"))).toEqual([1, 1 + 2 * 2 ** -10, Infinity, 0]);
    } finally {
      await reader.close();
    }
  });

  it("round-trips q8_0 within its quantisation error", async () => {
    const path = join(directory, "q8.gguf");
    const values = Float32Array.from({ length: 4 * 64 }, (_, index) => Math.sin(index * 1.7) * (1 + (index % 64) / 8));
    await writeGguf(path, { metadata: {}, tensors: [{ name: "w", dims: [64, 4], type: "q8_0", values }] });
    const reader = await GgufReader.open(path);
    try {
      expect(reader.tensor("w")).toMatchObject({ type: "q8_0", byteLength: (256 / 32) * 34 });
      const decoded = await reader.readTensor("w");
      for (let block = 0; block < values.length / 32; block++) {
        const slice = values.subarray(block * 32, block * 32 + 32);
        const maximum = Math.max(...slice.map(Math.abs));
        // Rounding to the nearest step d = max/127 (±d/2), plus d's own f16 rounding (relative 2^-11, times |q| ≤ 127).
        const tolerance = maximum / 127 / 2 + maximum * 2 ** -11;
        slice.forEach((value, index) => expect(Math.abs((decoded[block * 32 + index] as number) - value)).toBeLessThanOrEqual(tolerance));
      }
    } finally {
      await reader.close();
    }
  });

  it("writes q4_0 as ggml's reference does: d = (largest-magnitude value) / −8, nibbles min(15, trunc(x/d + 8.5))", async () => {
    const path = join(directory, "q4.gguf");
    // The block's extreme is −16, so d = 2 and x/d + 8.5 = x/2 + 8.5: −16 → 0, 0 → 8, 1 → 9 (9.0), 13 → 15 (15.0), 3 → 10 (10.0).
    const values = new Float32Array(32);
    values[0] = -16;
    values[1] = 1;
    values[16] = 13;
    values[17] = 3;
    await writeGguf(path, { metadata: {}, tensors: [{ name: "w", dims: [32, 1], type: "q4_0", values }] });
    const reader = await GgufReader.open(path);
    try {
      const bytes = await reader.readTensorBytes("w");
      expect(bytes.length).toBe(18);
      expect(new DataView(bytes.buffer, bytes.byteOffset).getUint16(0, true)).toBe(0x4000); // f16 2.0
      // Byte j: value j in the low nibble, value j + 16 in the high one.
      expect(Array.from(bytes.subarray(2))).toEqual([0 | (15 << 4), 9 | (10 << 4), ...new Array<number>(14).fill(8 | (8 << 4))]);
      expect(Array.from(await reader.readTensor("w")).slice(0, 2)).toEqual([-16, 2]);
    } finally {
      await reader.close();
    }
  });

  it("reads a range of rows without reading the rest", async () => {
    const path = join(directory, "rows.gguf");
    const values = Float32Array.from({ length: 5 * 32 }, (_, index) => index);
    await writeGguf(path, { metadata: {}, tensors: [{ name: "m", dims: [32, 5], type: "f32", values }] });
    const reader = await GgufReader.open(path);
    try {
      expect(await reader.readTensor("m", { firstRow: 2, rowCount: 2 })).toEqual(values.subarray(64, 128));
      expect(await reader.readTensor("m", { firstRow: 4 })).toEqual(values.subarray(128));
      await expect(reader.readTensor("m", { firstRow: 4, rowCount: 2 })).rejects.toThrow(InvalidInputError);
    } finally {
      await reader.close();
    }
  });

  it("writes and honours a custom general.alignment", async () => {
    const path = join(directory, "aligned.gguf");
    await writeGguf(path, {
      metadata: {},
      alignment: 128,
      tensors: [
        { name: "first", dims: [3], type: "f32", values: new Float32Array([1, 2, 3]) },
        { name: "second", dims: [2], type: "f32", values: new Float32Array([4, 5]) },
      ],
    });
    const reader = await GgufReader.open(path);
    try {
      expect(reader.metadata.get("general.alignment")).toEqual({ type: "uint32", value: 128 });
      expect(reader.alignment).toBe(128);
      expect(reader.dataOffset % 128).toBe(0);
      expect(reader.tensor("second").fileOffset - reader.tensor("first").fileOffset).toBe(128);
      expect(await reader.readTensor("second")).toEqual(new Float32Array([4, 5]));
    } finally {
      await reader.close();
    }
  });

  it("copies encoded tensors byte for byte", async () => {
    const source = join(directory, "source.gguf");
    const copy = join(directory, "copy.gguf");
    const values = Float32Array.from({ length: 64 }, (_, index) => index / 10);
    await writeGguf(source, { metadata: { "a.b": { type: "uint8", value: 1 } }, tensors: [{ name: "q", dims: [64], type: "q8_0", values }] });
    const reader = await GgufReader.open(source);
    const tensor = reader.tensor("q");
    await writeGguf(copy, {
      metadata: reader.metadata,
      tensors: [{ name: tensor.name, dims: tensor.dims, type: tensor.type, bytes: await reader.readTensorBytes("q") }],
    });
    await reader.close();
    expect((await readFile(copy)).equals(await readFile(source))).toBe(true);
  });

  it("replaces an existing file and leaves no temporary file behind", async () => {
    const path = join(directory, "model.gguf");
    await writeFile(path, "old content");
    await writeGguf(path, { metadata: {}, tensors: [{ name: "t", dims: [1], type: "f32", values: new Float32Array([1]) }] });
    expect(await readdir(directory)).toEqual(["model.gguf"]);
    const reader = await GgufReader.open(path);
    expect(reader.tensors).toHaveLength(1);
    await reader.close();
  });

  it("refuses inputs that would make an invalid file, and writes nothing", async () => {
    const path = join(directory, "bad.gguf");
    const write = (tensor: Parameters<typeof writeGguf>[1]["tensors"][number]) => writeGguf(path, { metadata: {}, tensors: [tensor] });
    await expect(write({ name: "t", dims: [2, 3], type: "f32", values: new Float32Array(5) })).rejects.toThrow(/values\.length/);
    await expect(write({ name: "t", dims: [48], type: "q8_0", values: new Float32Array(48) })).rejects.toThrow(/block size 32/);
    await expect(write({ name: "t", dims: [0], type: "f32", values: new Float32Array(0) })).rejects.toThrow(/dims/);
    await expect(write({ name: "x".repeat(64), dims: [1], type: "f32", values: new Float32Array(1) })).rejects.toThrow(/63 UTF-8 bytes/);
    await expect(write({ name: "t", dims: [1], type: "f32", values: new Float32Array([NaN]) })).rejects.toThrow(/finite/);
    await expect(write({ name: "t", dims: [1], type: "f32", values: () => new Float32Array(2) })).rejects.toThrow(InvalidInputError);
    await expect(writeGguf(path, { metadata: { k: { type: "uint8", value: 256 } }, tensors: [] })).rejects.toThrow(/metadata\.k/);
    await expect(writeGguf(path, { metadata: { k: { type: "int64", value: 1 as unknown as bigint } }, tensors: [] })).rejects.toThrow(InvalidInputError);
    await expect(writeGguf(path, { metadata: {}, tensors: [], alignment: 48 })).rejects.toThrow(/power of two/);
    const unknownType = { type: "uint128", value: 1 } as unknown as GgufValue;
    await expect(writeGguf(path, { metadata: { k: unknownType }, tensors: [] })).rejects.toThrow(/metadata\.k\.type/);
    expect(await readdir(directory)).toEqual([]);
  });
});
