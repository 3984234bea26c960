import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { GgufFileNotFoundError } from "../../src/gguf/errors/index.js";
import { inspectGguf } from "../../src/gguf/inspect-gguf.js";
import { writeGguf } from "../../src/gguf/write-gguf.js";

let directory: string;
beforeEach(async () => {
  directory = await mkdtemp(join(tmpdir(), "selfplay-gguf-inspect-"));
});
afterEach(async () => {
  await rm(directory, { recursive: true, force: true });
});

describe("inspectGguf", () => {
  it("describes metadata as JSON and tensors by name, ggml type and stored dims", async () => {
    const path = join(directory, "model.gguf");
    const vocabulary = Array.from({ length: 100 }, (_, index) => `token${index}`);
    await writeGguf(path, {
      metadata: {
        "general.architecture": { type: "string", value: "llama" },
        "test.safe": { type: "uint64", value: 2n ** 53n - 1n },
        "test.unsafe": { type: "int64", value: -(2n ** 60n) },
        "test.short": { type: "array", itemType: "uint64", value: [1n, 2n] },
        "test.vocabulary": { type: "array", itemType: "string", value: vocabulary },
        "test.nested": { type: "array", itemType: "array", value: [{ type: "array", itemType: "bool", value: [true] }] },
        ["__proto__"]: { type: "string", value: "stays a plain key" },
      },
      tensors: [
        { name: "token_embd.weight", dims: [32, 4], type: "q8_0", values: new Float32Array(128) },
        { name: "output_norm.weight", dims: [32], type: "f32", values: new Float32Array(32) },
      ],
    });
    const inspection = await inspectGguf(path);
    expect(inspection).toEqual({
      version: 3,
      alignment: 32,
      metadata: {
        "general.architecture": "llama",
        "test.safe": 2 ** 53 - 1,
        "test.unsafe": "-1152921504606846976",
        "test.short": [1, 2],
        "test.vocabulary": { itemType: "string", length: 100, head: vocabulary.slice(0, 8) },
        "test.nested": [[true]],
        ["__proto__"]: "stays a plain key",
      },
      tensors: [
        { name: "token_embd.weight", type: "q8_0", dims: [32, 4] },
        { name: "output_norm.weight", type: "f32", dims: [32] },
      ],
    });
    expect(Object.getPrototypeOf(inspection.metadata)).toBe(Object.prototype);
    expect(JSON.parse(JSON.stringify(inspection))).toEqual(inspection);

    const everything = await inspectGguf(path, { maximumArrayItems: 1000 });
    expect(everything.metadata["test.vocabulary"]).toEqual(vocabulary);
  });

  it("names a missing file", async () => {
    await expect(inspectGguf(join(directory, "nope.gguf"))).rejects.toThrow(GgufFileNotFoundError);
  });
});
