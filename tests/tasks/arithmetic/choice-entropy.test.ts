import { describe, expect, it } from "vitest";
import { choiceEntropy } from "../../../src/tasks/arithmetic/choice-entropy.js";

describe("choiceEntropy", () => {
  it("is ln k for k equally common choices, 0 for one choice or none, and in between otherwise", () => {
    expect(choiceEntropy(["add-1x1-carry", "sub-2x1-borrow", "add-2x2-no-carry", "sub-2x1-borrow", "add-1x1-carry", "add-2x2-no-carry"])).toBeCloseTo(Math.log(3), 12);
    expect(choiceEntropy(["a", "a", "a"])).toBe(0);
    expect(choiceEntropy([])).toBe(0);
    expect(choiceEntropy(["a", "a", "a", "b"])).toBeCloseTo(-(0.75 * Math.log(0.75) + 0.25 * Math.log(0.25)), 12);
  });
});
