import { describe, expect, it } from "vitest";
import { InvalidInputError } from "../../src/core/errors/index.js";
import { critiqueFromWeighted, weightedScore } from "../../src/dialectic/weighted-critique.js";

describe("weightedScore", () => {
  it("weighs correctness .4, completeness .3, style .2, efficiency .1 by default", () => {
    expect(weightedScore({ correctness: 1, completeness: 0.5, style: 0, efficiency: 1 })).toBeCloseTo(0.4 + 0.15 + 0 + 0.1, 12);
    expect(weightedScore({ correctness: 0, completeness: 0, style: 1, efficiency: 1 })).toBeCloseTo(0.3, 12);
    expect(weightedScore({ correctness: 1, completeness: 1, style: 1, efficiency: 1 })).toBe(1);
  });

  it("takes configurable weights, normalised by their sum", () => {
    const scores = { correctness: 1, completeness: 0, style: 0.5, efficiency: 0 };
    expect(weightedScore(scores, { correctness: 2, completeness: 1, style: 1, efficiency: 0 })).toBeCloseTo((2 + 0.5) / 4, 12);
    expect(weightedScore(scores, { correctness: 0, completeness: 0, style: 3, efficiency: 0 })).toBeCloseTo(0.5, 12);
  });

  it("rejects negative weights and weights that are all zero", () => {
    const scores = { correctness: 1, completeness: 1, style: 1, efficiency: 1 };
    expect(() => weightedScore(scores, { correctness: -1, completeness: 1, style: 1, efficiency: 1 })).toThrow(InvalidInputError);
    expect(() => weightedScore(scores, { correctness: 0, completeness: 0, style: 0, efficiency: 0 })).toThrow(InvalidInputError);
  });

  it("folds a weighted critique into a plain one", () => {
    const critique = critiqueFromWeighted({
      approved: true,
      scores: { correctness: 0.5, completeness: 1, style: 1, efficiency: 0 },
      feedback: "f",
      issues: ["i"],
      suggestions: [],
    });
    expect(critique).toEqual({ approved: true, score: expect.closeTo(0.2 + 0.3 + 0.2, 12), feedback: "f", issues: ["i"], suggestions: [] });
  });
});
