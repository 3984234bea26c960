import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  CorruptGgufError,
  GgufFileNotFoundError,
  GgufTensorNotFoundError,
  NotGgufError,
  TruncatedGgufError,
  UnsupportedGgufVersionError,
  UnsupportedTensorTypeError,
} from "../../src/gguf/errors/index.js";
import type { GgufError } from "../../src/gguf/errors/index.js";
import { GgufReader } from "../../src/gguf/gguf-reader.js";
import { RawGguf } from "./raw-gguf.js";

let directory: string;
beforeEach(async () => {
  directory = await mkdtemp(join(tmpdir(), "selfplay-gguf-read-"));
});
afterEach(async () => {
  await rm(directory, { recursive: true, force: true });
});

async function save(name: string, bytes: Uint8Array): Promise<string> {
  const path = join(directory, name);
  await writeFile(path, bytes);
  return path;
}

/** A valid file: two metadata entries, one f32 tensor [1.5, -2] at data offset 0. */
function smallFile(version = 3): RawGguf {
  return new RawGguf()
    .header(version, 1, 2)
    .string("general.architecture").uint32(8).string("llama")
    .string("general.alignment").uint32(4).uint32(64)
    .tensorInfo("weight", [2], 0, 0)
    .pad(64)
    .float32(1.5)
    .float32(-2);
}

describe("GgufReader", () => {
  it("parses a hand-assembled file, honouring general.alignment", async () => {
    const path = await save("small.gguf", smallFile().result());
    const reader = await GgufReader.open(path);
    try {
      expect(reader.metadata.get("general.architecture")).toEqual({ type: "string", value: "llama" });
      expect(reader.alignment).toBe(64);
      expect(reader.dataOffset).toBe(192);
      expect(reader.tensors).toEqual([{ name: "weight", type: "f32", dims: [2], elementCount: 2, fileOffset: 192, byteLength: 8 }]);
      expect(await reader.readTensor("weight")).toEqual(new Float32Array([1.5, -2]));
    } finally {
      await reader.close();
    }
  });

  it("reads version 2 files, which share version 3's layout", async () => {
    const reader = await GgufReader.open(await save("v2.gguf", smallFile(2).result()));
    expect(reader.version).toBe(2);
    await reader.close();
  });

  it("parses hand-assembled values of every type, nested arrays included", async () => {
    const bytes = new RawGguf()
      .header(3, 0, 8)
      .string("u8").uint32(0).bytes([200])
      .string("i8").uint32(1).bytes([0xff])
      .string("u16").uint32(2).bytes([0x34, 0x12])
      .string("i16").uint32(3).bytes([0xfe, 0xff])
      .string("i32").uint32(5).bytes([0xfd, 0xff, 0xff, 0xff])
      .string("f64").uint32(12).bytes(new Uint8Array(new Float64Array([0.25]).buffer))
      .string("i64").uint32(11).bytes([0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff])
      .string("nested").uint32(9).uint32(9).uint64(2)
      .uint32(7).uint64(2).bytes([1, 0])
      .uint32(8).uint64(1).string("x")
      .result();
    const reader = await GgufReader.open(await save("values.gguf", bytes));
    expect(Object.fromEntries(reader.metadata)).toEqual({
      u8: { type: "uint8", value: 200 },
      i8: { type: "int8", value: -1 },
      u16: { type: "uint16", value: 0x1234 },
      i16: { type: "int16", value: -2 },
      i32: { type: "int32", value: -3 },
      f64: { type: "float64", value: 0.25 },
      i64: { type: "int64", value: -1n },
      nested: {
        type: "array",
        itemType: "array",
        value: [
          { type: "array", itemType: "bool", value: [true, false] },
          { type: "array", itemType: "string", value: ["x"] },
        ],
      },
    });
    await reader.close();
  });

  it("names the file when it does not exist", async () => {
    const path = join(directory, "missing.gguf");
    const error = await GgufReader.open(path).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(GgufFileNotFoundError);
    expect((error as GgufError).path).toBe(path);
    expect((error as Error).message).toContain(path);
  });

  it("refuses a directory", async () => {
    const path = join(directory, "folder.gguf");
    await mkdir(path);
    await expect(GgufReader.open(path)).rejects.toThrow(/not a regular file/);
  });

  it("refuses a file that is not GGUF, and an empty one", async () => {
    const elf = await save("binary", new Uint8Array([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0]));
    await expect(GgufReader.open(elf)).rejects.toThrow(NotGgufError);
    await expect(GgufReader.open(elf)).rejects.toThrow(`${elf}: not a GGUF file (it starts with bytes 7f 45 4c 46`);
    await expect(GgufReader.open(await save("empty", new Uint8Array()))).rejects.toThrow(/empty/);
  });

  it("refuses unsupported versions, hinting at big-endian files", async () => {
    const v1 = await save("v1.gguf", smallFile(1).result());
    await expect(GgufReader.open(v1)).rejects.toThrow(UnsupportedGgufVersionError);
    await expect(GgufReader.open(v1)).rejects.toThrow(/version 1 is not supported/);
    const bigEndian = await save("be.gguf", new RawGguf().bytes([0x47, 0x47, 0x55, 0x46, 0, 0, 0, 3]).result());
    await expect(GgufReader.open(bigEndian)).rejects.toThrow(/big-endian/);
  });

  it("reports a truncated header, naming what was cut off", async () => {
    const whole = smallFile().result();
    for (const length of [2, 10, 30, 60, 100]) {
      const path = await save(`cut-${length}.gguf`, whole.subarray(0, length));
      const error = await GgufReader.open(path).catch((caught: unknown) => caught);
      expect(error, `cut at ${length}`).toBeInstanceOf(TruncatedGgufError);
      expect((error as Error).message).toContain(path);
      expect((error as Error).message).toMatch(/truncated/);
    }
    const cutInValue = await save("cut-value.gguf", whole.subarray(0, 66));
    await expect(GgufReader.open(cutInValue)).rejects.toThrow(/metadata "general.architecture" runs past the end of the file \(66 bytes\)/);
  });

  it("reports tensor data that runs past the end of the file", async () => {
    const whole = smallFile().result();
    const path = await save("short-data.gguf", whole.subarray(0, whole.length - 1));
    await expect(GgufReader.open(path)).rejects.toThrow(TruncatedGgufError);
    await expect(GgufReader.open(path)).rejects.toThrow(/the data of tensor "weight" \(bytes 192 to 200\) runs past the end of the file \(199 bytes\)/);
  });

  it("refuses counts and lengths larger than the file instead of allocating them", async () => {
    const hugeCount = new RawGguf().header(3, 0, 1).string("k").uint32(9).uint32(4).uint64(2n ** 62n).result();
    await expect(GgufReader.open(await save("huge-array.gguf", hugeCount))).rejects.toThrow(TruncatedGgufError);
    const hugeString = new RawGguf().header(3, 0, 1).uint64(2n ** 63n).result();
    await expect(GgufReader.open(await save("huge-string.gguf", hugeString))).rejects.toThrow(TruncatedGgufError);
  });

  it("refuses corrupt values", async () => {
    const badType = new RawGguf().header(3, 0, 1).string("k").uint32(13).uint32(0).result();
    await expect(GgufReader.open(await save("bad-type.gguf", badType))).rejects.toThrow(CorruptGgufError);
    await expect(GgufReader.open(await save("bad-type.gguf", badType))).rejects.toThrow(/metadata "k" has unknown value type 13/);
    const badBool = new RawGguf().header(3, 0, 1).string("k").uint32(7).bytes([2]).result();
    await expect(GgufReader.open(await save("bad-bool.gguf", badBool))).rejects.toThrow(/bool stored as 2/);
    const duplicate = new RawGguf().header(3, 0, 2).string("k").uint32(0).bytes([1]).string("k").uint32(0).bytes([2]).result();
    await expect(GgufReader.open(await save("duplicate.gguf", duplicate))).rejects.toThrow(/"k" appears twice/);
    const badAlignment = new RawGguf().header(3, 0, 1).string("general.alignment").uint32(4).uint32(48).result();
    await expect(GgufReader.open(await save("alignment.gguf", badAlignment))).rejects.toThrow(/power of two/);
    const misaligned = new RawGguf().header(3, 1, 0).tensorInfo("t", [1], 0, 4).pad().uint64(0).result();
    await expect(GgufReader.open(await save("misaligned.gguf", misaligned))).rejects.toThrow(/data offset 4/);
    const partialBlock = new RawGguf().header(3, 1, 0).tensorInfo("q", [16], 8, 0).pad().result();
    await expect(GgufReader.open(await save("partial.gguf", partialBlock))).rejects.toThrow(/rows of 16 values, not a multiple of q8_0's block size 32/);
  });

  it("names the file, tensor and type of a tensor type it cannot read", async () => {
    const unknown = new RawGguf().header(3, 1, 0).tensorInfo("mystery", [32], 99, 0).pad().bytes(new Uint8Array(64)).result();
    const unknownPath = await save("unknown.gguf", unknown);
    const error = await GgufReader.open(unknownPath).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(UnsupportedTensorTypeError);
    expect((error as Error).message).toContain(`${unknownPath}: tensor "mystery" has type id 99`);

    // iq2_xxs: a known layout (256 values in 66 bytes) that selfplay does not dequantise.
    const iq = new RawGguf().header(3, 1, 0).tensorInfo("codebook", [256], 16, 0).pad().bytes(new Uint8Array(66)).pad().result();
    const iqPath = await save("iq.gguf", iq);
    const reader = await GgufReader.open(iqPath);
    try {
      expect(reader.tensor("codebook")).toMatchObject({ type: "iq2_xxs", byteLength: 66 });
      expect(await reader.readTensorBytes("codebook")).toHaveLength(66);
      await expect(reader.readTensor("codebook")).rejects.toThrow(UnsupportedTensorTypeError);
      await expect(reader.readTensor("codebook")).rejects.toThrow(`${iqPath}: tensor "codebook" has type iq2_xxs, which selfplay cannot read`);
      await expect(reader.readTensor("absent")).rejects.toThrow(GgufTensorNotFoundError);
    } finally {
      await reader.close();
    }
  });
});
