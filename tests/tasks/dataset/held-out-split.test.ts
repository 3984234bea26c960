import { describe, expect, it } from "vitest";
import { splitHeldOut } from "../../../src/tasks/dataset/held-out-split.js";

const rows = Array.from({ length: 1000 }, (_, index) => ({ question: `${index}+1=`, answer: String(index + 1), split: index % 4 === 0 ? "test" : "train" }));

describe("splitHeldOut", () => {
  it("holds out about the fraction, the same rows whatever their order, other rows under another seed", () => {
    const { training, heldOut } = splitHeldOut(rows, 0.1, 0);
    expect(training.length + heldOut.length).toBe(1000);
    expect(heldOut.length).toBeGreaterThan(70);
    expect(heldOut.length).toBeLessThan(130);
    expect(splitHeldOut([...rows].reverse(), 0.1, 0).heldOut.map((row) => row.question).sort()).toEqual(heldOut.map((row) => row.question).sort());
    expect(splitHeldOut(rows, 0.1, 1).heldOut).not.toEqual(heldOut);
    expect(training.some((row) => heldOut.includes(row))).toBe(false);
  });

  it("holds out nothing at 0 and everything at 1", () => {
    expect(splitHeldOut(rows, 0, 0).heldOut).toEqual([]);
    expect(splitHeldOut(rows, 1, 0).training).toEqual([]);
  });

  it("holds out the rows whose column holds the value, compared as text", () => {
    const { training, heldOut } = splitHeldOut(rows, { column: "split", value: "test" }, 0);
    expect(heldOut).toHaveLength(250);
    expect(training.every((row) => row.split === "train")).toBe(true);
    expect(splitHeldOut([{ q: "a", held: "true" }, { q: "b", held: false }], { column: "held", value: true }, 0).heldOut).toEqual([{ q: "a", held: "true" }]);
  });
});
