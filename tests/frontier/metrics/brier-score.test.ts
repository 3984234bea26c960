import { describe, expect, it } from "vitest";
import { brierScore } from "../../../src/frontier/metrics/brier-score.js";

describe("brierScore", () => {
  it("is the mean squared error of the probabilities", () => {
    // (0.9 − 1)² + (0.2 − 0)² + (0.5 − 0.25)² = 0.01 + 0.04 + 0.0625 = 0.1125 → /3.
    expect(brierScore([0.9, 0.2, 0.5], [1, 0, 0.25])).toBeCloseTo(0.0375, 12);
    expect(brierScore([0.5, 0.5], [1, 0])).toBe(0.25);
    expect(brierScore([], [])).toBeNaN();
  });

  it("rejects a score outside [0, 1]", () => {
    expect(() => brierScore([1.5], [1])).toThrow(/probability/);
  });
});
