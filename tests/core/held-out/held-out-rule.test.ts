import { describe, expect, it } from "vitest";
import { InvalidInputError } from "../../../src/core/errors/index.js";
import { fnv1aText } from "../../../src/core/hashing/fnv1a.js";
import { isHeldOut, parseHeldOutRule } from "../../../src/core/held-out/held-out-rule.js";

/** Arithmetic's 20,000 problems as written (`23+45`, `7-12`: integers 0–99), whose split the bundled base was pretrained around. */
const arithmeticTexts = ["+", "-"].flatMap((operator) => Array.from({ length: 100 * 100 }, (_, index) => `${Math.floor(index / 100)}${operator}${index % 100}`));
const keys = Array.from({ length: 5000 }, (_, index) => `${index}+1=`);
const heldOutKeys = (rule: ReturnType<typeof parseHeldOutRule>, from: readonly string[] = keys) => from.filter((key) => isHeldOut(key, rule));

describe("the hashed held-out rule", () => {
  it("holds out arithmetic's 20,000 problems exactly as FNV-1a 32 of the text ≡ 0 (mod 10) did", () => {
    const reference = arithmeticTexts.filter((text) => fnv1aText(text) % 10 === 0);
    const heldOut = heldOutKeys(parseHeldOutRule({ rule: "hashed" }), arithmeticTexts);
    expect(heldOut).toHaveLength(reference.length);
    expect(heldOut).toEqual(reference);
    // Pinned: a change here moves the bundled base's held-out split.
    expect(heldOut).toHaveLength(1_985);
  });

  it("holds out one key in `modulus` by the hash, every key at modulus 1", () => {
    const rule = parseHeldOutRule({ rule: "hashed", modulus: 7 });
    expect(rule).toEqual({ rule: "hashed", modulus: 7 });
    expect(heldOutKeys(rule)).toEqual(keys.filter((key) => fnv1aText(key) % 7 === 0));
    expect(heldOutKeys(parseHeldOutRule({ rule: "hashed", modulus: 1 }))).toEqual(keys);
  });
});

describe("the fraction held-out rule", () => {
  it("holds out the keys whose seeded, salted FNV-1a fraction of 2³² is below the fraction", () => {
    const rule = parseHeldOutRule({ rule: "fraction", fraction: 0.3, seed: 5, salt: "salt\u241f" });
    const reference = keys.filter((key) => fnv1aText(`salt\u241f5\u0000${key}`) / 2 ** 32 < 0.3);
    expect(heldOutKeys(rule)).toEqual(reference);
    expect(reference.length / keys.length).toBeGreaterThan(0.27);
    expect(reference.length / keys.length).toBeLessThan(0.33);
    // Without a seed nothing is hashed for it; without a salt, nothing for that.
    expect(heldOutKeys(parseHeldOutRule({ rule: "fraction", fraction: 0.3 }))).toEqual(keys.filter((key) => fnv1aText(key) / 2 ** 32 < 0.3));
  });

  it("holds out the same keys whatever their order, other keys under another seed or salt", () => {
    const rule = parseHeldOutRule({ rule: "fraction", fraction: 0.1, seed: 0 });
    const heldOut = heldOutKeys(rule);
    expect(heldOutKeys(rule, [...keys].reverse()).sort()).toEqual([...heldOut].sort());
    const otherSeed = heldOutKeys(parseHeldOutRule({ rule: "fraction", fraction: 0.1, seed: 1 }));
    const otherSalt = heldOutKeys(parseHeldOutRule({ rule: "fraction", fraction: 0.1, seed: 0, salt: "x" }));
    for (const other of [otherSeed, otherSalt]) {
      const shared = other.filter((key) => heldOut.includes(key)).length;
      // Independent splits share about a tenth of their keys, not most of them.
      expect(shared / heldOut.length).toBeLessThan(0.2);
    }
  });

  it("holds out nothing at 0 and everything at 1", () => {
    expect(heldOutKeys(parseHeldOutRule({ rule: "fraction", fraction: 0, seed: 3 }))).toEqual([]);
    expect(heldOutKeys(parseHeldOutRule({ rule: "fraction", fraction: 1, seed: 3 }))).toEqual(keys);
  });
});

describe("parseHeldOutRule", () => {
  it.each([
    [{ rule: "fraction", fraction: 1.5 }, "heldOut.fraction"],
    [{ rule: "fraction" }, "heldOut.fraction"],
    [{ rule: "fraction", fraction: 0.1, seed: -1 }, "heldOut.seed"],
    [{ rule: "hashed", modulus: 0 }, "heldOut.modulus"],
    [{ rule: "hashed", modulus: 2.5 }, "heldOut.modulus"],
    [{ rule: "sorted" }, "heldOut.rule"],
    [0.1, "heldOut"],
  ])("refuses %j, naming %s", (input, field) => {
    const error = (() => {
      try {
        parseHeldOutRule(input);
      } catch (caught) {
        return caught;
      }
    })();
    expect(error).toBeInstanceOf(InvalidInputError);
    expect((error as InvalidInputError).field).toBe(field);
  });

  it("names a misspelt key, and the field by the caller's name", () => {
    expect(() => parseHeldOutRule({ rule: "hashed", modulu: 10 })).toThrow(/heldOut\.modulu.*did you mean "modulus"/);
    expect(() => parseHeldOutRule({ rule: "fraction", fraction: 2 }, { fieldName: () => "heldOutFraction" })).toThrow(/^heldOutFraction: got 2; expected/);
  });
});
