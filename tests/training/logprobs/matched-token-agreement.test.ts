import { describe, expect, it } from "vitest";
import { matchedTokenAgreement } from "../../../src/training/logprobs/matched-token-agreement.js";

const decoded = (tokens: number[], logprobs: number[]) => ({ completionTokenIds: Int32Array.from(tokens), completionLogprobs: Float64Array.from(logprobs) });

describe("matchedTokenAgreement", () => {
  it("compares each pair of completions up to where their tokens part", () => {
    const agreement = matchedTokenAgreement(
      [decoded([1, 2, 3], [-0.1, -0.2, -0.3]), decoded([7, 8], [-1, -2]), decoded([5], [-0.5])],
      [decoded([1, 2, 9], [-0.1, -0.25, -9]), decoded([6, 8], [-1, -2]), decoded([5, 4], [-0.5, -4])],
    );
    // Tokens 1 and 2 of the first pair, none of the second (they part at once), token 5 of the third.
    expect(agreement.tokens).toBe(3);
    expect(agreement.maxAbsDiff).toBeCloseTo(0.05, 12);
    expect(agreement.meanAbsDiff).toBeCloseTo(0.05 / 3, 12);
  });

  it("skips requests the second decode lacks", () => {
    expect(matchedTokenAgreement([decoded([1], [-1])], []).tokens).toBe(0);
  });
});
