import { describe, expect, it } from "vitest";
import { InvalidInputError } from "../../../src/core/errors/index.js";
import { gaussianSolveRateReward } from "../../../src/core/rewards/gaussian-solve-rate-reward.js";

describe("gaussianSolveRateReward", () => {
  it("is exactly 1 at the target", () => {
    expect(gaussianSolveRateReward(0.5)).toBe(1);
    expect(gaussianSolveRateReward(0.25, { target: 0.25, sigma: 0.25 })).toBe(1);
    expect(gaussianSolveRateReward(0, { target: 0 })).toBe(1);
    expect(gaussianSolveRateReward(1, { target: 1 })).toBe(1);
  });

  it("is exp(−0.5) one sigma either side of the target", () => {
    // target 0.25, sigma 0.25: p = 0 and p = 0.5 are exactly ±1σ (no rounding).
    expect(gaussianSolveRateReward(0.5, { target: 0.25, sigma: 0.25 })).toBe(Math.exp(-0.5));
    expect(gaussianSolveRateReward(0, { target: 0.25, sigma: 0.25 })).toBe(Math.exp(-0.5));
    // Defaults μ = 0.5, σ = 0.1: 0.4 and 0.6 are ±1σ up to rounding.
    expect(gaussianSolveRateReward(0.6)).toBeCloseTo(Math.exp(-0.5), 12);
    expect(gaussianSolveRateReward(0.4)).toBeCloseTo(Math.exp(-0.5), 12);
  });

  it("matches exp(−½z²) at two sigma and at the edges p = 0 and p = 1", () => {
    // target 0, sigma 0.5: p = 1 is z = 2 → exp(−2)
    expect(gaussianSolveRateReward(1, { target: 0, sigma: 0.5 })).toBe(Math.exp(-2));
    // defaults: p = 0 and p = 1 are z = ∓5 → exp(−12.5)
    expect(gaussianSolveRateReward(0)).toBeCloseTo(Math.exp(-12.5), 15);
    expect(gaussianSolveRateReward(1)).toBeCloseTo(Math.exp(-12.5), 15);
    // target 0.75, sigma 0.5: p = 0 is z = −1.5 → exp(−1.125)
    expect(gaussianSolveRateReward(0, { target: 0.75, sigma: 0.5 })).toBe(Math.exp(-1.125));
  });

  it("is symmetric about the target and decreases away from it", () => {
    const options = { target: 0.5, sigma: 0.25 };
    expect(gaussianSolveRateReward(0.25, options)).toBe(gaussianSolveRateReward(0.75, options));
    expect(gaussianSolveRateReward(0.5, options)).toBeGreaterThan(gaussianSolveRateReward(0.75, options));
    expect(gaussianSolveRateReward(0.75, options)).toBeGreaterThan(gaussianSolveRateReward(1, options));
  });

  it.each([-0.1, 1.1, Number.NaN, Number.POSITIVE_INFINITY])("rejects pass rate %s with InvalidInputError", (passRate) => {
    expect(() => gaussianSolveRateReward(passRate)).toThrow(InvalidInputError);
    expect(() => gaussianSolveRateReward(passRate)).toThrow(/^passRate:/);
  });

  it.each([0, -0.1, Number.NaN])("rejects sigma %s with InvalidInputError", (sigma) => {
    expect(() => gaussianSolveRateReward(0.5, { sigma })).toThrow(InvalidInputError);
    expect(() => gaussianSolveRateReward(0.5, { sigma })).toThrow(/^sigma:/);
  });

  it.each([-0.1, 1.5, Number.NaN])("rejects target %s with InvalidInputError", (target) => {
    expect(() => gaussianSolveRateReward(0.5, { target })).toThrow(InvalidInputError);
    expect(() => gaussianSolveRateReward(0.5, { target })).toThrow(/^target:/);
  });

  it("names the field in the error", () => {
    try {
      gaussianSolveRateReward(0.5, { sigma: -1 });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(InvalidInputError);
      expect((error as InvalidInputError).field).toBe("sigma");
      expect((error as InvalidInputError).received).toBe(-1);
    }
  });
});
