import { describe, expect, it } from "vitest";
import { InvalidInputError } from "../../../src/core/errors/index.js";
import { addLoraUpdate, loraFactor } from "../../../src/inference/model-files/add-lora-update.js";

describe("addLoraUpdate", () => {
  it("adds factor · B · A to W (row-major), worked by hand", () => {
    // W [out 2, in 3], A [rank 2, in 3], B [out 2, rank 2].
    const weight = Float32Array.from([1, 2, 3, 4, 5, 6]);
    const a = Float32Array.from([1, 0, 2, 0, 1, -1]);
    const b = Float32Array.from([1, 2, -1, 3]);
    // B·A = [[1·1 + 2·0, 1·0 + 2·1, 1·2 + 2·(−1)], [−1·1 + 3·0, −1·0 + 3·1, −1·2 + 3·(−1)]] = [[1, 2, 0], [−1, 3, −5]]
    addLoraUpdate(weight, a, b, { inputLength: 3, outputLength: 2, rank: 2 }, 0.5);
    expect([...weight]).toEqual([1.5, 3, 3, 3.5, 6.5, 3.5]);
  });

  it("refuses arrays whose lengths disagree with the shape", () => {
    const shape = { inputLength: 3, outputLength: 2, rank: 1 };
    expect(() => addLoraUpdate(new Float32Array(6), new Float32Array(2), new Float32Array(2), shape, 1)).toThrow(InvalidInputError);
    expect(() => addLoraUpdate(new Float32Array(6), new Float32Array(3), new Float32Array(3), shape, 1)).toThrow(/b\.length: got 3; expected 2/);
  });
});

describe("loraFactor", () => {
  it("is scale · alpha / rank, rounded to float32 as llama.cpp computes it", () => {
    expect(loraFactor(1, 16, 8)).toBe(2);
    expect(loraFactor(0.5, 3, 2)).toBe(0.75);
    expect(loraFactor(1, 0.1, 3)).toBe(Math.fround(Math.fround(0.1) / 3));
  });
});
