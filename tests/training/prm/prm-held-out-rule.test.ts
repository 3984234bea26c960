import { describe, expect, it } from "vitest";
import { InvalidInputError } from "../../../src/core/errors/index.js";
import { fnv1aText } from "../../../src/core/hashing/fnv1a.js";
import { isHeldOut } from "../../../src/core/held-out/held-out-rule.js";
import { prmHeldOutRule } from "../../../src/training/prm/prm-held-out-rule.js";

const tasks = Array.from({ length: 2000 }, (_, index) => `${index % 100}+${Math.floor(index / 100)}`);

describe("prmHeldOutRule", () => {
  it("holds out exactly the tasks whose salted FNV-1a 32 fraction of 2³² is below the fraction", () => {
    for (const fraction of [0, 0.2, 0.5, 1]) {
      const rule = prmHeldOutRule(fraction);
      const reference = tasks.filter((task) => fnv1aText(`selfplay-prm-held-out\u241f${task}`) / 2 ** 32 < fraction);
      expect(tasks.filter((task) => isHeldOut(task, rule))).toEqual(reference);
    }
    expect(isHeldOut("1+1", prmHeldOutRule(0))).toBe(false);
    expect(isHeldOut("1+1", prmHeldOutRule(1))).toBe(true);
  });

  it("is independent of the arithmetic task's own split, which would leave it nothing", () => {
    const heldOut = tasks.filter((task) => isHeldOut(task, prmHeldOutRule(0.2)));
    const arithmeticHeldOut = heldOut.filter((task) => fnv1aText(task) % 10 === 0);
    expect(arithmeticHeldOut.length / heldOut.length).toBeLessThan(0.2);
  });

  it("names heldOutFraction for a fraction outside [0, 1]", () => {
    expect(() => prmHeldOutRule(1.5)).toThrow(InvalidInputError);
    expect(() => prmHeldOutRule(1.5)).toThrow(/^heldOutFraction: got 1\.5; expected/);
  });
});
