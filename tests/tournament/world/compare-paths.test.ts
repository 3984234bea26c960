import { describe, expect, it } from "vitest";
import { comparePaths } from "../../../src/tournament/world/compare-paths.js";

describe("comparePaths", () => {
  it("orders segment by segment: indices by value, keys by code unit (not locale), a path before its extensions", () => {
    const paths: PropertyKey[][] = [["changes", "valueOf"], ["a", 10], ["a"], ["Z"], ["a", 2], ["changes", "maxSpendPercentOfTreasury"], ["é"], ["a", "key"], ["_"]];
    expect([...paths].sort(comparePaths)).toEqual([["Z"], ["_"], ["a"], ["a", 2], ["a", 10], ["a", "key"], ["changes", "maxSpendPercentOfTreasury"], ["changes", "valueOf"], ["é"]]);
    expect(comparePaths(["x", 1], ["x", 1])).toBe(0);
  });
});
