import { describe, expect, it } from "vitest";
import { InvalidInputError } from "../../../src/core/errors/index.js";
import { RandomStream, deriveStream, type RandomStreamState } from "../../../src/core/random/random-stream.js";

function draws(stream: RandomStream, count: number): number[] {
  return Array.from({ length: count }, () => stream.next());
}

describe("RandomStream", () => {
  it("gives the same sequence for the same seed", () => {
    expect(draws(new RandomStream("seed"), 50)).toEqual(draws(new RandomStream("seed"), 50));
    const a = new RandomStream("seed");
    const b = new RandomStream("seed");
    expect([a.uint32(), a.integer(1000), a.next()]).toEqual([b.uint32(), b.integer(1000), b.next()]);
  });

  it("gives different sequences for different seeds", () => {
    expect(draws(new RandomStream("seed-a"), 10)).not.toEqual(draws(new RandomStream("seed-b"), 10));
  });

  it("next is in [0, 1), uint32 in [0, 2³²), integer in [0, n)", () => {
    const stream = new RandomStream("ranges");
    const doubles = Array.from({ length: 1000 }, () => stream.next());
    const words = Array.from({ length: 1000 }, () => stream.uint32());
    const integers = Array.from({ length: 1000 }, () => stream.integer(7));
    expect(Math.min(...doubles)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...doubles)).toBeLessThan(1);
    expect(words.every((word) => Number.isInteger(word) && word >= 0 && word <= 0xffff_ffff)).toBe(true);
    // a uint32 spans the whole range, not just the positive int32 half
    expect(Math.max(...words)).toBeGreaterThan(0x7fff_ffff);
    expect(integers.every((integer) => Number.isInteger(integer) && integer >= 0 && integer < 7)).toBe(true);
  });

  it("integer(1) is always 0 and integer(n) reaches every value", () => {
    const stream = new RandomStream("integers");
    expect(Array.from({ length: 20 }, () => stream.integer(1))).toEqual(new Array(20).fill(0));
    const seen = new Set(Array.from({ length: 500 }, () => stream.integer(5)));
    expect([...seen].sort()).toEqual([0, 1, 2, 3, 4]);
  });

  it("continues identically from a saved state, also after a JSON round trip", () => {
    const original = new RandomStream("resume");
    draws(original, 17);
    const state = JSON.parse(JSON.stringify(original.state())) as RandomStreamState;
    const resumed = new RandomStream("resume", state);
    expect(draws(resumed, 30)).toEqual(draws(original, 30));
  });

  it("state() is a snapshot: drawing later does not change a saved state", () => {
    const stream = new RandomStream("snapshot");
    const state = stream.state();
    const first = draws(stream, 5);
    expect(draws(new RandomStream("snapshot", state), 5)).toEqual(first);
    expect(draws(new RandomStream("snapshot", state), 5)).toEqual(first);
  });

  it.each([0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY])("integer(%s) throws InvalidInputError", (max) => {
    expect(() => new RandomStream("bad").integer(max)).toThrow(InvalidInputError);
  });

  it("pick returns an element, reproducibly, and throws on an empty array", () => {
    const items = ["a", "b", "c"] as const;
    const a = new RandomStream("pick");
    const b = new RandomStream("pick");
    const picksA = Array.from({ length: 30 }, () => a.pick(items));
    const picksB = Array.from({ length: 30 }, () => b.pick(items));
    expect(picksA).toEqual(picksB);
    for (const pick of picksA) expect(items).toContain(pick);
    expect(new Set(picksA).size).toBe(3);
    expect(() => a.pick([])).toThrow(InvalidInputError);
  });
});

describe("RandomStream.weightedIndex", () => {
  it("never picks a zero-weight index and follows the proportions", () => {
    const stream = new RandomStream("weights");
    const counts = [0, 0, 0, 0, 0];
    const draws = 8000;
    for (let index = 0; index < draws; index++) counts[stream.weightedIndex([0, 1, 0, 3, 0])]! += 1;
    expect(counts[0]).toBe(0);
    expect(counts[2]).toBe(0);
    expect(counts[4]).toBe(0);
    expect((counts[1] as number) + (counts[3] as number)).toBe(draws);
    // expected 2000 and 6000; the binomial std is √(8000·¼·¾) ≈ 39, so ±200 is over 5σ.
    expect(Math.abs((counts[1] as number) - 2000)).toBeLessThan(200);
    expect(Math.abs((counts[3] as number) - 6000)).toBeLessThan(200);
  });

  it("is reproducible for a fixed seed", () => {
    const a = new RandomStream("weights-repro");
    const b = new RandomStream("weights-repro");
    const weights = [0.5, 0, 2, 1.5];
    const sequenceA = Array.from({ length: 100 }, () => a.weightedIndex(weights));
    const sequenceB = Array.from({ length: 100 }, () => b.weightedIndex(weights));
    expect(sequenceA).toEqual(sequenceB);
    expect(sequenceA).not.toContain(1);
  });

  it("always picks the only positive weight", () => {
    const stream = new RandomStream("single");
    for (let index = 0; index < 100; index++) expect(stream.weightedIndex([0, 0, 2.5, 0])).toBe(2);
  });

  it("falls back to the last positive weight, never a trailing zero, when rounding leaves a remainder", () => {
    // With next() = 1 − 2⁻⁵³, (0.3 + 0.7)·next rounds so that subtracting 0.3 then 0.7 leaves a
    // remainder ≥ 0 (checked by hand in node); the trailing zero weight must not win.
    class AlmostOne extends RandomStream {
      override next(): number {
        return 1 - 2 ** -53;
      }
    }
    expect(new AlmostOne("x").weightedIndex([0.3, 0.7, 0])).toBe(1);
  });

  it("picks index 0 for a draw of exactly 0 and skips leading zero weights", () => {
    class Zero extends RandomStream {
      override next(): number {
        return 0;
      }
    }
    expect(new Zero("x").weightedIndex([1, 1])).toBe(0);
    expect(new Zero("x").weightedIndex([0, 0, 1, 1])).toBe(2);
  });

  it.each([
    ["empty", []],
    ["all zero", [0, 0]],
    ["negative", [-1, 2]],
    ["NaN", [Number.NaN, 1]],
    ["infinite", [Number.POSITIVE_INFINITY, 1]],
  ])("throws InvalidInputError for %s weights", (_label, weights) => {
    expect(() => new RandomStream("bad").weightedIndex(weights as number[])).toThrow(InvalidInputError);
  });
});

describe("deriveStream", () => {
  it("gives the same numbers for the same (seed, path)", () => {
    expect(draws(deriveStream(7, "episode", "3", "role", "solver"), 20)).toEqual(
      draws(deriveStream(7, "episode", "3", "role", "solver"), 20),
    );
  });

  it("gives different numbers for different paths or run seeds", () => {
    const base = draws(deriveStream(7, "episode", "3"), 10);
    expect(draws(deriveStream(7, "episode", "4"), 10)).not.toEqual(base);
    expect(draws(deriveStream(8, "episode", "3"), 10)).not.toEqual(base);
    expect(draws(deriveStream(7, "episode"), 10)).not.toEqual(base);
    // Path segments are separated, so ("ab") and ("a", "b") differ.
    expect(draws(deriveStream(7, "ab"), 10)).not.toEqual(draws(deriveStream(7, "a", "b"), 10));
    expect(draws(deriveStream(7), 10)).not.toEqual(base);
  });

  it("is independent of what other streams draw", () => {
    const first = deriveStream(1, "a");
    const other = deriveStream(1, "b");
    draws(other, 100);
    expect(draws(first, 10)).toEqual(draws(deriveStream(1, "a"), 10));
  });
});
