import { describe, expect, it } from "vitest";
import { jsonDifferences } from "../../../src/training/trainer/json-differences.js";

describe("jsonDifferences", () => {
  it("lists the dotted paths of differing leaves, added and removed keys included", () => {
    const before = { seed: 3, trainer: { epochs: 1, loss: { clipLow: 0.2 } }, stop: ["a"], gone: true };
    const after = { seed: 4, trainer: { epochs: 1, loss: { clipLow: 0.3 } }, stop: ["a", "b"], added: null };
    expect(jsonDifferences(before, after)).toEqual([
      { path: "seed", before: 3, after: 4 },
      { path: "trainer.loss.clipLow", before: 0.2, after: 0.3 },
      { path: "stop", before: ["a"], after: ["a", "b"] },
      { path: "gone", before: true, after: undefined },
      { path: "added", before: undefined, after: null },
    ]);
  });

  it("finds nothing between equal values", () => {
    expect(jsonDifferences({ a: [1, { b: 2 }] }, { a: [1, { b: 2 }] })).toEqual([]);
    expect(jsonDifferences(1, 2)).toEqual([{ path: "(root)", before: 1, after: 2 }]);
  });
});
