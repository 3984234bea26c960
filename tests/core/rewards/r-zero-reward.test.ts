import { describe, expect, it } from "vitest";
import { InvalidInputError } from "../../../src/core/errors/index.js";
import { rZeroReward } from "../../../src/core/rewards/r-zero-reward.js";

describe("rZeroReward", () => {
  it("is min(p, 1 − p)", () => {
    expect(rZeroReward(0)).toBe(0);
    expect(rZeroReward(1)).toBe(0);
    expect(rZeroReward(0.5)).toBe(0.5);
    expect(rZeroReward(0.25)).toBe(0.25);
    expect(rZeroReward(0.75)).toBe(0.25);
    expect(rZeroReward(0.9)).toBe(1 - 0.9);
    expect(rZeroReward(0.1)).toBe(0.1);
  });

  it("peaks at 0.5", () => {
    expect(rZeroReward(0.5)).toBeGreaterThan(rZeroReward(0.49));
    expect(rZeroReward(0.5)).toBeGreaterThan(rZeroReward(0.51));
  });

  it.each([-0.1, 1.1, Number.NaN])("rejects pass rate %s with InvalidInputError", (passRate) => {
    expect(() => rZeroReward(passRate)).toThrow(InvalidInputError);
  });
});
