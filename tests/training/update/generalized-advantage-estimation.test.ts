import { describe, expect, it } from "vitest";
import { generalizedAdvantageEstimation } from "../../../src/training/update/generalized-advantage-estimation.js";

describe("generalizedAdvantageEstimation", () => {
  it("matches the recursion computed by hand", () => {
    const { advantages, returns } = generalizedAdvantageEstimation([0, 0, 1], [0.5, 0.2, 0.4], 0.9, 0.8);
    const delta2 = 1 - 0.4;
    const delta1 = 0 + 0.9 * 0.4 - 0.2;
    const delta0 = 0 + 0.9 * 0.2 - 0.5;
    const a2 = delta2;
    const a1 = delta1 + 0.72 * a2;
    const a0 = delta0 + 0.72 * a1;
    expect(Array.from(advantages)).toEqual([a0, a1, a2].map((value) => expect.closeTo(value, 12)));
    expect(Array.from(returns)).toEqual([a0 + 0.5, a1 + 0.2, a2 + 0.4].map((value) => expect.closeTo(value, 12)));
  });

  it("with γ = λ = 1 gives the return minus the value (Monte-Carlo)", () => {
    const { advantages } = generalizedAdvantageEstimation([0, 0, 2], [0.3, 0.1, 0.7], 1, 1);
    expect(Array.from(advantages)).toEqual([2 - 0.3, 2 - 0.1, 2 - 0.7].map((value) => expect.closeTo(value, 12)));
  });

  it("refuses mismatched lengths", () => {
    expect(() => generalizedAdvantageEstimation([0, 1], [0.5], 1, 1)).toThrowError(/values/);
  });
});
