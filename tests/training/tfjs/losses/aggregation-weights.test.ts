import { describe, expect, it } from "vitest";
import { InvalidInputError } from "../../../../src/core/errors/index.js";
import { aggregationWeights } from "../../../../src/training/update/aggregation-weights.js";

describe("aggregationWeights", () => {
  // Two sequences: 1 token and 3 tokens.
  it("token-mean weighs every token of the batch alike", () => {
    expect(Array.from(aggregationWeights([1, 3], "token-mean"))).toEqual([0.25, 0.25, 0.25, 0.25]);
  });

  it("sequence-mean-token-mean weighs every sequence alike", () => {
    const weights = Array.from(aggregationWeights([1, 3], "sequence-mean-token-mean"));
    expect(weights[0]).toBeCloseTo(0.5, 7);
    for (const weight of weights.slice(1)) expect(weight).toBeCloseTo(1 / 6, 7);
  });

  it("sequence-mean-token-sum divides by a constant length, so a token's weight does not depend on its sequence's length", () => {
    const weights = Array.from(aggregationWeights([1, 3], "sequence-mean-token-sum", 8));
    for (const weight of weights) expect(weight).toBeCloseTo(1 / 16, 7);
    expect(() => aggregationWeights([1, 3], "sequence-mean-token-sum", 2)).toThrowError(InvalidInputError);
  });

  it("gives no weights for an empty batch", () => {
    expect(aggregationWeights([], "token-mean")).toHaveLength(0);
  });
});
