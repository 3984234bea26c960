import { describe, expect, it } from "vitest";
import { poolCells } from "../../../src/benchmarks/pool/bench-pool.js";
import { median } from "../../../src/benchmarks/pool/measure-pool-cell.js";

describe("poolCells and median", () => {
  it("plans in-process, 1 and one-per-core shared workers, and 2 per-worker engines, without repeats", () => {
    expect(poolCells(8)).toEqual([{ workers: 0, engine: "shared" }, { workers: 1, engine: "shared" }, { workers: 8, engine: "shared" }, { workers: 2, engine: "per-worker" }]);
    expect(poolCells(1)).toEqual([{ workers: 0, engine: "shared" }, { workers: 1, engine: "shared" }, { workers: 2, engine: "per-worker" }]);
  });

  it("takes the middle value, or the mean of the middle two", () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([7])).toBe(7);
  });
});
