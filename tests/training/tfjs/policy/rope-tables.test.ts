import { describe, expect, it } from "vitest";
import type { PolicyConfiguration } from "../../../../src/training/tfjs/policy/policy-configuration.js";
import { ropeRotation, ropeTables } from "../../../../src/training/tfjs/policy/rope-tables.js";

const configuration = (ropeType: "normal" | "neox"): PolicyConfiguration => ({
  architecture: ropeType === "normal" ? "llama" : "qwen2",
  vocabularySize: 259,
  contextLength: 16,
  embeddingLength: 8,
  blockCount: 1,
  feedForwardLength: 8,
  headCount: 2,
  headCountKv: 2,
  keyLength: 4,
  valueLength: 4,
  ropeType,
  ropeFrequencyBase: 10_000,
  rmsNormEpsilon: 1e-5,
});

/** Row vector x times the row-major [n, n] matrix. */
const times = (x: number[], matrix: Float32Array) => x.map((_, column) => x.reduce((sum, value, row) => sum + value * matrix[row * x.length + column]!, 0));

describe("ropeRotation", () => {
  it("pairs adjacent elements for normal rope: (x0, x1, x2, x3) → (−x1, x0, −x3, x2)", () => {
    expect(times([1, 2, 3, 4], ropeRotation(configuration("normal")))).toEqual([-2, 1, -4, 3]);
  });

  it("pairs the two halves for neox rope: (x0, x1, x2, x3) → (−x2, −x3, x0, x1)", () => {
    expect(times([1, 2, 3, 4], ropeRotation(configuration("neox")))).toEqual([-3, -4, 1, 2]);
  });
});

describe("ropeTables", () => {
  it("turns pair i by position · base^(−2i/n), written to both members of the pair", () => {
    const { cos, sin } = ropeTables(configuration("normal"), 16);
    const position = 5;
    for (const pair of [0, 1]) {
      const angle = position * Math.pow(10_000, (-2 * pair) / 4);
      for (const member of [2 * pair, 2 * pair + 1]) {
        expect(cos[position * 4 + member]).toBeCloseTo(Math.cos(angle), 6);
        expect(sin[position * 4 + member]).toBeCloseTo(Math.sin(angle), 6);
      }
    }
    const neox = ropeTables(configuration("neox"), 16);
    expect(Array.from(neox.cos.subarray(position * 4, position * 4 + 4))).toEqual([cos[20], cos[22], cos[21], cos[23]]);
  });

  it("divides each pair's angle by its rope_freqs factor", () => {
    const { sin } = ropeTables(configuration("normal"), 16, Float32Array.from([1, 8]));
    expect(sin[9 * 4 + 2]).toBeCloseTo(Math.sin((9 * Math.pow(10_000, -0.5)) / 8), 6);
    expect(sin[9 * 4 + 0]).toBeCloseTo(Math.sin(9), 6);
  });
});
