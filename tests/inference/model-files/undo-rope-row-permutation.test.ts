import { describe, expect, it } from "vitest";
import { InvalidInputError } from "../../../src/core/errors/index.js";
import { undoRopeRowPermutation } from "../../../src/inference/model-files/undo-rope-row-permutation.js";

describe("undoRopeRowPermutation", () => {
  it("puts llama.cpp's interleaved rope rows back in rotate-half order, head by head", () => {
    // Two heads of width 4: GGUF rows (pair, part) 00 01 10 11 are Hugging Face rows 0, 2, 1, 3 of each head.
    const gguf = Float32Array.from([0, 1, 2, 3, 4, 5, 6, 7]);
    expect(Array.from(undoRopeRowPermutation(gguf, 8, 1, 2))).toEqual([0, 2, 1, 3, 4, 6, 5, 7]);
    // Whole rows move: two columns each.
    const wide = Float32Array.from([0, 0.5, 1, 1.5, 2, 2.5, 3, 3.5]);
    expect(Array.from(undoRopeRowPermutation(wide, 4, 2, 1))).toEqual([0, 0.5, 2, 2.5, 1, 1.5, 3, 3.5]);
  });

  it("refuses heads of odd width and values of the wrong length", () => {
    expect(() => undoRopeRowPermutation(new Float32Array(6), 6, 1, 2)).toThrow(InvalidInputError);
    expect(() => undoRopeRowPermutation(new Float32Array(5), 8, 1, 2)).toThrow(/values\.length/);
  });
});
