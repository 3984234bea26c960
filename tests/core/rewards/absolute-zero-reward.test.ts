import { describe, expect, it } from "vitest";
import { InvalidInputError } from "../../../src/core/errors/index.js";
import { absoluteZeroReward } from "../../../src/core/rewards/absolute-zero-reward.js";

describe("absoluteZeroReward", () => {
  it("is 0 for a task never solved or always solved", () => {
    expect(absoluteZeroReward(0)).toBe(0);
    expect(absoluteZeroReward(1)).toBe(0);
  });

  it("is 1 − p strictly between 0 and 1", () => {
    expect(absoluteZeroReward(0.25)).toBe(0.75);
    expect(absoluteZeroReward(0.5)).toBe(0.5);
    expect(absoluteZeroReward(0.75)).toBe(0.25);
    expect(absoluteZeroReward(1 / 8)).toBe(7 / 8);
    expect(absoluteZeroReward(0.9)).toBe(1 - 0.9);
  });

  it("rewards a barely-solved task most", () => {
    expect(absoluteZeroReward(1e-9)).toBe(1 - 1e-9);
  });

  it.each([-0.1, 1.1, Number.NaN])("rejects pass rate %s with InvalidInputError", (passRate) => {
    expect(() => absoluteZeroReward(passRate)).toThrow(InvalidInputError);
  });
});
