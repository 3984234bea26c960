import { describe, expect, it } from "vitest";
import { InvalidInputError } from "../../../src/core/errors/index.js";
import { areaUnderRocCurve } from "../../../src/frontier/metrics/area-under-roc-curve.js";

describe("areaUnderRocCurve", () => {
  it("is the share of positive–negative pairs ranked right", () => {
    // Pairs (positive, negative): (0.35, 0.1) ✓, (0.35, 0.4) ✗, (0.8, 0.1) ✓, (0.8, 0.4) ✓ → 3/4.
    expect(areaUnderRocCurve([0.1, 0.4, 0.35, 0.8], [0, 0, 1, 1])).toBe(0.75);
    expect(areaUnderRocCurve([0.9, 0.8, 0.1], [1, 1, 0])).toBe(1);
    expect(areaUnderRocCurve([0.1, 0.2, 0.9], [1, 1, 0])).toBe(0);
  });

  it("counts ties as one half", () => {
    expect(areaUnderRocCurve([0.5, 0.5], [1, 0])).toBe(0.5);
    // Pairs: (0.5₁, 0.5₀) ½, (0.5₁, 0.2₀) 1, (0.7₁, 0.5₀) 1, (0.7₁, 0.2₀) 1 → 3.5/4.
    expect(areaUnderRocCurve([0.5, 0.5, 0.2, 0.7], [1, 0, 0, 1])).toBe(0.875);
  });

  it("weights pairs of soft labels by y_i·(1 − y_j), never pairing an example with itself", () => {
    // (i=1 over j=0): 0.75·0.75 = 0.5625, ranked right; (i=0 over j=1): 0.25·0.25 = 0.0625, ranked wrong → 0.5625/0.625.
    expect(areaUnderRocCurve([0.2, 0.9], [0.25, 0.75])).toBeCloseTo(0.9, 12);
    // One soft example alone has no pair.
    expect(areaUnderRocCurve([0.3], [0.5])).toBeNaN();
  });

  it("is NaN without both classes, and rejects mismatched or non-finite input", () => {
    expect(areaUnderRocCurve([0.1, 0.9], [1, 1])).toBeNaN();
    expect(areaUnderRocCurve([], [])).toBeNaN();
    expect(() => areaUnderRocCurve([0.1], [1, 0])).toThrow(InvalidInputError);
    expect(() => areaUnderRocCurve([Number.NaN, 0.2], [1, 0])).toThrow(/scores\.0/);
    expect(() => areaUnderRocCurve([0.1, 0.2], [1, 2])).toThrow(/labels\.1/);
  });

  it("accepts any finite score (logits as well as probabilities)", () => {
    expect(areaUnderRocCurve([-3, 5], [0, 1])).toBe(1);
  });
});
