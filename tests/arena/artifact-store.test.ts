import { describe, expect, it } from "vitest";
import { ArtifactStore } from "../../src/arena/artifact-store.js";
import { InvalidInputError } from "../../src/core/errors/index.js";
import { RandomStream } from "../../src/core/random/random-stream.js";

function sampleIds(store: ArtifactStore, random: RandomStream, count: number): number[] {
  return Array.from({ length: count }, () => store.sample(random).id);
}

describe("ArtifactStore", () => {
  it("adds artifacts with increasing ids and default weight 1", () => {
    const store = new ArtifactStore();
    expect(store.size).toBe(0);
    expect(store.add("first")).toBe(0);
    expect(store.add({ topic: "second" }, 2.5)).toBe(1);
    expect(store.size).toBe(2);
    expect(store.snapshot()).toEqual({
      nextId: 2,
      entries: [
        { id: 0, artifact: "first", weight: 1 },
        { id: 1, artifact: { topic: "second" }, weight: 2.5 },
      ],
    });
  });

  it("builds from a list with of()", () => {
    const store = ArtifactStore.of(["a", "b", "c"], { capacity: 2 });
    expect(store.size).toBe(2);
    expect(store.snapshot().entries.map((entry) => entry.artifact)).toEqual(["b", "c"]);
  });

  it("samples reproducibly for a fixed seed", () => {
    const store = ArtifactStore.of(["a", "b", "c", "d"]);
    const first = sampleIds(store, new RandomStream("store"), 50);
    expect(sampleIds(store, new RandomStream("store"), 50)).toEqual(first);
    expect(new Set(first)).toEqual(new Set([0, 1, 2, 3]));
    expect(sampleIds(store, new RandomStream("other"), 50)).not.toEqual(first);
  });

  it("never samples a weight-0 entry and follows the weights", () => {
    const store = new ArtifactStore();
    store.add("never", 0);
    store.add("once", 1);
    store.add("thrice", 3);
    const counts = new Map<number, number>();
    for (const id of sampleIds(store, new RandomStream("weights"), 4000)) counts.set(id, (counts.get(id) ?? 0) + 1);
    expect(counts.get(0)).toBeUndefined();
    // expected 1000 and 3000; binomial std ≈ 27, so ±150 is over 5σ
    expect(Math.abs((counts.get(1) ?? 0) - 1000)).toBeLessThan(150);
    expect(Math.abs((counts.get(2) ?? 0) - 3000)).toBeLessThan(150);
  });

  it("setWeight changes what is sampled", () => {
    const store = ArtifactStore.of(["a", "b"]);
    store.setWeight(0, 0);
    expect(new Set(sampleIds(store, new RandomStream("set"), 100))).toEqual(new Set([1]));
    store.setWeight(0, 1);
    store.setWeight(1, 0);
    expect(new Set(sampleIds(store, new RandomStream("set"), 100))).toEqual(new Set([0]));
  });

  it("evicts the oldest entry beyond capacity; its id is then unknown", () => {
    const store = new ArtifactStore({ capacity: 3 });
    for (const artifact of ["a", "b", "c", "d", "e"]) store.add(artifact);
    expect(store.size).toBe(3);
    expect(store.snapshot().entries.map((entry) => entry.id)).toEqual([2, 3, 4]);
    expect(new Set(sampleIds(store, new RandomStream("evict"), 200))).toEqual(new Set([2, 3, 4]));
    expect(() => store.setWeight(0, 2)).toThrow(InvalidInputError);
    expect(store.add("f")).toBe(5);
  });

  it("setWeight on an unknown id throws InvalidInputError", () => {
    const store = ArtifactStore.of(["a"]);
    expect(() => store.setWeight(7, 1)).toThrow(InvalidInputError);
    expect(() => store.setWeight(-1, 1)).toThrow(InvalidInputError);
  });

  it.each([-1, Number.NaN, Number.POSITIVE_INFINITY])("rejects weight %s in add and setWeight", (weight) => {
    const store = ArtifactStore.of(["a"]);
    expect(() => store.add("b", weight)).toThrow(InvalidInputError);
    expect(() => store.setWeight(0, weight)).toThrow(InvalidInputError);
    expect(store.size).toBe(1);
  });

  it.each([0, -1, 1.5, Number.NaN])("rejects capacity %s", (capacity) => {
    expect(() => new ArtifactStore({ capacity })).toThrow(InvalidInputError);
  });

  it("sampling an empty store throws InvalidInputError", () => {
    expect(() => new ArtifactStore().sample(new RandomStream("empty"))).toThrow(InvalidInputError);
  });

  it("sampling a store whose weights are all 0 throws InvalidInputError", () => {
    const store = new ArtifactStore();
    store.add("a", 0);
    expect(() => store.sample(new RandomStream("zero"))).toThrow(InvalidInputError);
  });

  it("copies artifacts in and out, so callers cannot change what is stored", () => {
    const artifact = { topic: "tides", tags: ["sea"] };
    const store = new ArtifactStore();
    store.add(artifact);
    artifact.tags.push("mutated");
    const sampled = store.sample(new RandomStream("copy"));
    expect(sampled.artifact).toEqual({ topic: "tides", tags: ["sea"] });
    (sampled.artifact as { tags: string[] }).tags.push("mutated");
    sampled.weight = 99;
    const snapshot = store.snapshot();
    snapshot.entries.length = 0;
    expect(store.snapshot().entries).toEqual([{ id: 0, artifact: { topic: "tides", tags: ["sea"] }, weight: 1 }]);
  });

  it("snapshot and restore round trip: same later samples and ids", () => {
    const original = new ArtifactStore({ capacity: 4 });
    ["a", "b", "c", "d", "e"].forEach((artifact, index) => original.add(artifact, index + 1));
    original.setWeight(2, 0);
    const snapshot = JSON.parse(JSON.stringify(original.snapshot())) as ReturnType<ArtifactStore["snapshot"]>;

    const restored = new ArtifactStore({ capacity: 4 });
    restored.restore(snapshot);
    expect(restored.size).toBe(4);
    expect(restored.snapshot()).toEqual(original.snapshot());
    const expected = sampleIds(original, new RandomStream("resume"), 100);
    expect(sampleIds(restored, new RandomStream("resume"), 100)).toEqual(expected);
    expect(expected).not.toContain(2);
    expect(restored.add("f")).toBe(5);
    expect(original.add("f")).toBe(5);
    expect(restored.snapshot()).toEqual(original.snapshot());
  });

  it("restore rejects an invalid snapshot", () => {
    const store = new ArtifactStore();
    expect(() => store.restore({ nextId: -1, entries: [] })).toThrow();
    expect(() => store.restore({ nextId: 1, entries: [{ id: 0, artifact: "a", weight: -1 }] })).toThrow();
  });
});

describe("ArtifactStore.restore limits", () => {
  it("refuses a snapshot larger than the store's capacity or with ids at or above nextId", () => {
    const big = ArtifactStore.of(["a", "b", "c"]).snapshot();
    expect(() => new ArtifactStore({ capacity: 2 }).restore(big)).toThrow(/at most 2 entries/);
    expect(() => new ArtifactStore().restore({ nextId: 1, entries: [{ id: 1, artifact: "x", weight: 1 }] })).toThrow(/nextId/);
  });
});
