import { describe, expect, it } from "vitest";
import { scaleGroupSizes } from "../../../src/frontier/learnable/scale-group-sizes.js";

describe("scaleGroupSizes", () => {
  it("keeps the proportions and brings the sum to the budget: [4, 22, 2] in 24 → [3, 19, 2]", () => {
    // s just under 0.875: 3.5 would round to 4 and the sum to 25.
    expect(scaleGroupSizes([4, 22, 2], 24, 2, 32)).toEqual([3, 19, 2]);
  });

  it("scales up to the budget where every cluster is easy", () => {
    expect(scaleGroupSizes([2, 2, 2, 2], 32, 2, 32)).toEqual([8, 8, 8, 8]);
  });

  it("clamps: one capped prompt among easy ones gets what the others leave, never less than min each", () => {
    expect(scaleGroupSizes([32, 2, 2, 2], 16, 2, 32)).toEqual([10, 2, 2, 2]);
    expect(scaleGroupSizes([32, 32], 2, 2, 32)).toEqual([2, 2]);
    expect(scaleGroupSizes([32, 16], 200, 2, 32)).toEqual([32, 32]);
  });
});
