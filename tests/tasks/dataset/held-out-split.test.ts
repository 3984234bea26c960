import { describe, expect, it } from "vitest";
import { fnv1aText } from "../../../src/core/hashing/fnv1a.js";
import type { JsonObject } from "../../../src/core/json.js";
import { splitHeldOut } from "../../../src/tasks/dataset/held-out-split.js";

const rows = Array.from({ length: 1000 }, (_, index) => ({ question: `${index}+1=`, answer: String(index + 1), split: index % 4 === 0 ? "test" : "train" }));

describe("splitHeldOut", () => {
  it("holds out a fraction of the rows exactly as FNV-1a 32 of the seed, a NUL and the row's JSON did", () => {
    for (const [fraction, seed] of [[0.1, 0], [0.1, 1], [0.35, 77]] as const) {
      const isReferenceHeldOut = (row: (typeof rows)[number]) => fnv1aText(`${seed}\u0000${JSON.stringify(row)}`) / 2 ** 32 < fraction;
      expect(splitHeldOut(rows, fraction, seed)).toEqual({ training: rows.filter((row) => !isReferenceHeldOut(row)), heldOut: rows.filter(isReferenceHeldOut) });
    }
  });

  it("holds out the rows whose column holds the value, compared as text", () => {
    const { training, heldOut } = splitHeldOut(rows, { column: "split", value: "test" }, 0);
    expect(heldOut).toEqual(rows.filter((row) => row.split === "test"));
    expect(training).toEqual(rows.filter((row) => row.split === "train"));
    expect(splitHeldOut([{ q: "a", held: "true" }, { q: "b", held: false }, { q: "c" }], { column: "held", value: true }, 0).heldOut).toEqual([{ q: "a", held: "true" }]);
    // A row without the column is never held out, even when the value reads "undefined".
    expect(splitHeldOut([{ q: "c" }], { column: "held", value: "undefined" }, 0).heldOut).toEqual([]);
  });

  it("holds out the rows whose column's text hashes to 0 mod the modulus, exactly as FNV-1a 32 of that text did, whatever the rest of the row", () => {
    const isReferenceHeldOut = (row: (typeof rows)[number]) => fnv1aText(row.question) % 10 === 0;
    expect(splitHeldOut(rows, { rule: "hashed", column: "question", modulus: 10 }, 0)).toEqual({ training: rows.filter((row) => !isReferenceHeldOut(row)), heldOut: rows.filter(isReferenceHeldOut) });
    // Neither the seed nor the other columns move a row.
    const questions = (split: { heldOut: readonly JsonObject[] }) => split.heldOut.map((row) => row["question"]);
    expect(questions(splitHeldOut(rows.map((row) => ({ ...row, split: "other" })), { rule: "hashed", column: "question", modulus: 10 }, 7))).toEqual(rows.filter(isReferenceHeldOut).map((row) => row.question));
    // A number is hashed as its text.
    const numbers = Array.from({ length: 30 }, (_, index) => ({ n: index }));
    expect(splitHeldOut(numbers, { rule: "hashed", column: "n", modulus: 3 }, 0).heldOut).toEqual(numbers.filter((row) => fnv1aText(String(row.n)) % 3 === 0));
    expect(() => splitHeldOut([{ q: "a" }, { p: "b" }], { rule: "hashed", column: "q", modulus: 10 }, 0)).toThrow(/^environment\.heldOut\.column: got "q"; expected a column every row has as text or a number; row 2 has columns p/);
  });
});
