import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { InvalidInputError } from "../../../src/core/errors/index.js";
import { writeSafetensors } from "../../../src/inference/model-files/write-safetensors.js";

let directory: string;
beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), "selfplay-safetensors-"));
});
afterAll(async () => {
  await rm(directory, { recursive: true, force: true });
});

describe("writeSafetensors", () => {
  it("writes the header length, the space-padded JSON header and the little-endian float32 data, byte for byte", async () => {
    const path = join(directory, "two.safetensors");
    await writeSafetensors(path, { metadata: { format: "pt" }, tensors: [{ name: "x", shape: [2], values: Float32Array.from([1, -2]) }, { name: "y", shape: [1, 1], values: () => Float32Array.from([0.5]) }] });
    const bytes = await readFile(path);
    const header = '{"__metadata__":{"format":"pt"},"x":{"dtype":"F32","shape":[2],"data_offsets":[0,8]},"y":{"dtype":"F32","shape":[1,1],"data_offsets":[8,12]}}';
    const padded = header.padEnd(Math.ceil(header.length / 8) * 8, " ");
    expect(bytes.readBigUInt64LE(0)).toBe(BigInt(padded.length));
    expect(bytes.subarray(8, 8 + padded.length).toString("utf8")).toBe(padded);
    expect(Array.from(bytes.subarray(8 + padded.length))).toEqual([0x00, 0x00, 0x80, 0x3f, 0x00, 0x00, 0x00, 0xc0, 0x00, 0x00, 0x00, 0x3f]);
  });

  it("refuses a repeated name and values that do not fill the shape", async () => {
    const values = new Float32Array(1);
    await expect(writeSafetensors(join(directory, "a"), { tensors: [{ name: "x", shape: [1], values }, { name: "x", shape: [1], values }] })).rejects.toThrow(InvalidInputError);
    await expect(writeSafetensors(join(directory, "b"), { tensors: [{ name: "x", shape: [2], values }] })).rejects.toThrow(/tensors\[0\]\.values\.length/);
  });
});
