import { describe, expect, it } from "vitest";
import { GrpoAdvantage } from "../../../src/core/credit/grpo-advantage.js";
import { creditSample } from "../../helpers/credit-sample.js";
import { expectAllClose } from "../../helpers/expect-close.js";

describe("GrpoAdvantage", () => {
  it("is named grpo by default and dr-grpo without std scaling", () => {
    expect(new GrpoAdvantage().name).toBe("grpo");
    expect(new GrpoAdvantage({ scaleByStd: true }).name).toBe("grpo");
    expect(new GrpoAdvantage({ scaleByStd: false }).name).toBe("dr-grpo");
  });

  it("normalises by the sample (n − 1) std plus 1e-4, as TRL", () => {
    // rewards [1, 0, 0, 1]: mean 0.5; squared deviations 4 × 0.25 = 1; variance 1/3.
    const samples = [1, 0, 0, 1].map((reward) => creditSample("g", "solver", reward));
    const scale = Math.sqrt(1 / 3) + 1e-4;
    expectAllClose(new GrpoAdvantage().assign(samples), [0.5 / scale, -0.5 / scale, -0.5 / scale, 0.5 / scale]);
  });

  it("handles an odd group with a zero deviation", () => {
    // rewards [3, 1, 2]: mean 2; deviations 1, −1, 0; variance (1 + 1 + 0)/2 = 1; std 1.
    const samples = [3, 1, 2].map((reward) => creditSample("g", "solver", reward));
    expectAllClose(new GrpoAdvantage().assign(samples), [1 / 1.0001, -1 / 1.0001, 0]);
  });

  it("uses a custom epsilon", () => {
    // rewards [0, 2]: mean 1; variance (1 + 1)/1 = 2; std √2.
    const samples = [0, 2].map((reward) => creditSample("g", "solver", reward));
    const scale = Math.SQRT2 + 0.5;
    expectAllClose(new GrpoAdvantage({ epsilon: 0.5 }).assign(samples), [-1 / scale, 1 / scale]);
  });

  it("Dr. GRPO (scaleByStd false) gives the unscaled r − mean", () => {
    const samples = [1, 0, 0, 1].map((reward) => creditSample("g", "solver", reward));
    expect(new GrpoAdvantage({ scaleByStd: false }).assign(samples)).toEqual([0.5, -0.5, -0.5, 0.5]);
    const uneven = [3, 1, 2, 6].map((reward) => creditSample("g", "solver", reward));
    // mean 12/4 = 3
    expect(new GrpoAdvantage({ scaleByStd: false }).assign(uneven)).toEqual([0, -2, -1, 3]);
  });

  it("gives a uniform group 0 instead of dividing by zero", () => {
    const samples = [1, 1, 1].map((reward) => creditSample("g", "solver", reward));
    expect(new GrpoAdvantage().assign(samples)).toEqual([0, 0, 0]);
    expect(new GrpoAdvantage({ scaleByStd: false }).assign(samples)).toEqual([0, 0, 0]);
  });

  it("gives a group of one advantage 0", () => {
    expect(new GrpoAdvantage().assign([creditSample("g", "proposer", 0.9)])).toEqual([0]);
    expect(new GrpoAdvantage({ scaleByStd: false }).assign([creditSample("g", "proposer", 0.9)])).toEqual([0]);
  });

  it("returns an empty array for no samples", () => {
    expect(new GrpoAdvantage().assign([])).toEqual([]);
  });

  it("groups by (groupId, roleId) and writes results back in sample order", () => {
    const samples = [
      creditSample("q1", "solver", 1), // q1/solver: [1, 0] mean 0.5, variance 0.5
      creditSample("q2", "solver", 4), // q2/solver: [4, 2, 0] mean 2, variance (4+0+4)/2 = 4, std 2
      creditSample("q1", "proposer", 7), // q1/proposer alone → 0
      creditSample("q1", "solver", 0),
      creditSample("q2", "solver", 2),
      creditSample("q2", "solver", 0),
    ];
    const q1 = Math.sqrt(0.5) + 1e-4;
    const q2 = 2 + 1e-4;
    expectAllClose(new GrpoAdvantage().assign(samples), [0.5 / q1, 2 / q2, 0, -0.5 / q1, 0, -2 / q2]);
    expect(new GrpoAdvantage({ scaleByStd: false }).assign(samples)).toEqual([0.5, 2, 0, -0.5, 0, -2]);
  });

  it("does not confuse ids that would collide if simply concatenated", () => {
    const samples = [creditSample("a|b", "c", 1), creditSample("a", "b|c", 0)];
    expect(new GrpoAdvantage({ scaleByStd: false }).assign(samples)).toEqual([0, 0]);
  });
});
