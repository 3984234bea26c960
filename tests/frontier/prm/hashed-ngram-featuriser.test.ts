import { describe, expect, it } from "vitest";
import { InvalidInputError } from "../../../src/core/errors/index.js";
import { fnv1aBytes, fnv1aText } from "../../../src/core/hashing/fnv1a.js";
import { HashedNgramFeaturiser } from "../../../src/frontier/prm/hashed-ngram-featuriser.js";

const norm = (vector: Float32Array) => Math.sqrt(vector.reduce((sum, value) => sum + value * value, 0));

describe("fnv1aBytes", () => {
  it("matches the published FNV-1a 32-bit test vectors", () => {
    expect(fnv1aText("")).toBe(0x811c9dc5);
    expect(fnv1aText("a")).toBe(0xe40c292c);
    expect(fnv1aText("foobar")).toBe(0xbf9cf968);
  });

  it("hashes a byte range, continuing from a given hash", () => {
    const bytes = new TextEncoder().encode("xfoobarx");
    expect(fnv1aBytes(bytes, 1, 7)).toBe(0xbf9cf968);
    expect(fnv1aBytes(new TextEncoder().encode("bar"), 0, 3, fnv1aText("foo"))).toBe(0xbf9cf968);
  });
});

describe("HashedNgramFeaturiser", () => {
  it("adds each field's L2-normalised n-gram counts and normalises the sum (golden vector)", () => {
    const featuriser = new HashedNgramFeaturiser({ dimensions: 16, maxNgram: 2 });
    const vector = featuriser.featuriseOne({ task: "7+5", cluster: "add-1x1-carry", prefix: "1" });
    // "7+5" has 3 unigrams and 2 bigrams, here in 5 distinct buckets (1/√5 each); the prefix "1"
    // and the cluster are one feature each (1). The sum's squared norm is 1 + 1 + 1 = 3.
    const task = 1 / Math.sqrt(5) / Math.sqrt(3);
    const single = 1 / Math.sqrt(3);
    const nonzero = [...vector.entries()].filter(([, value]) => value !== 0);
    expect(nonzero.map(([index]) => index)).toEqual([2, 4, 5, 7, 8, 12, 15]);
    const expected = [task, single, task, task, task, task, single];
    nonzero.forEach(([, value], position) => expect(value).toBeCloseTo(expected[position] as number, 7));
  });

  it("is deterministic, unit-length, and tells the task's n-grams from the prefix's", async () => {
    const featuriser = new HashedNgramFeaturiser();
    expect(featuriser.dimensions).toBe(256);
    expect(featuriser.settings).toEqual({ kind: "hashed-ngram", dimensions: 256, maxNgram: 3 });
    const state = { task: "23+45", cluster: "add-2x2-no-carry", prefix: "6" };
    const [first, second] = await featuriser.featurise([state, state]);
    expect(first).toEqual(second);
    expect(norm(first as Float32Array)).toBeCloseTo(1, 6);
    const inTask = featuriser.featuriseOne({ task: "12", cluster: "c", prefix: "" });
    const inPrefix = featuriser.featuriseOne({ task: "", cluster: "c", prefix: "12" });
    expect(inTask).not.toEqual(inPrefix);
  });

  it("gives the empty state the zero vector, and rejects bad settings", () => {
    const featuriser = new HashedNgramFeaturiser({ dimensions: 8 });
    // The cluster schema needs a name; the featuriser itself copes with an empty one.
    expect(Array.from(featuriser.featuriseOne({ task: "", cluster: "", prefix: "" }))).toEqual(new Array(8).fill(0));
    expect(() => new HashedNgramFeaturiser({ dimensions: 4 })).toThrow(InvalidInputError);
    expect(() => new HashedNgramFeaturiser({ maxNgram: 0 })).toThrow(/maxNgram/);
  });
});
