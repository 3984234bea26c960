import { describe, expect, it } from "vitest";
import { readJson } from "../../../src/tournament/world/read-json.js";

/** Each refused part as `field: got`, in the order readJson lists them. */
function refused(value: unknown): string[] {
  const read = readJson(value);
  return read.ok ? [] : read.problems.map((problem) => `${problem.field}: ${problem.got}`);
}

describe("readJson", () => {
  it("copies JSON exactly, every object's keys in code-unit order, -0 as 0, a key holding undefined absent", () => {
    const value = { b: [1, { z: null, a: -0 }], a: "é", B: true, [Symbol("hidden")]: 1, gone: undefined };
    const read = readJson(value);
    expect(read.ok).toBe(true);
    if (!read.ok) return;
    expect(JSON.stringify(read.value)).toBe('{"B":true,"a":"é","b":[1,{"a":0,"z":null}]}');
    expect(Object.is((read.value as { b: [number, { a: number }] }).b[1].a, 0)).toBe(true);
    // A fresh copy: nothing the caller holds is shared.
    expect((read.value as { b: unknown }).b).not.toBe(value.b);
  });

  it("keeps an own __proto__ key as a key, never as the copy's prototype", () => {
    const read = readJson(JSON.parse('{"__proto__":{"type":"Pass"},"constructor":1}'));
    expect(read.ok).toBe(true);
    if (!read.ok) return;
    expect(Object.getPrototypeOf(read.value)).toBe(Object.prototype);
    expect(Object.keys(read.value as object)).toEqual(["__proto__", "constructor"]);
    expect((read.value as { type?: unknown }).type).toBeUndefined();
    expect(JSON.stringify(read.value)).toBe('{"__proto__":{"type":"Pass"},"constructor":1}');
  });

  it("names every part JSON cannot hold, in path order whatever the key order, without running a getter or a proxy trap", () => {
    const cycle: Record<string, unknown> = {};
    cycle.self = cycle;
    let touched = false;
    const getter = Object.defineProperty({}, "x", { enumerable: true, get: () => ((touched = true), 1) });
    const proxy = new Proxy({}, { ownKeys: () => ((touched = true), []) });
    const holed = [1, 2, 3];
    delete holed[1];
    const value = { z: Number.NaN, y: holed, x: 5n, w: () => 1, v: Symbol("s"), u: new Date(0), t: cycle, s: getter, r: proxy, q: Number.NEGATIVE_INFINITY, p: [undefined] };
    expect(refused(value)).toEqual([
      "p.0: nothing",
      "q: -Infinity",
      "r: a proxy",
      "s.x: a getter",
      "t.self: a cycle",
      "u: an object that is not plain (a class instance, a Date, a Map, …)",
      "v: a symbol",
      "w: a function",
      "x: 5n",
      "y.1: nothing (an array hole)",
      "z: NaN",
    ]);
    expect(touched).toBe(false);
    expect(refused(undefined)).toEqual(["(submission): nothing"]);
  });

  it("bounds what it reads: 64 levels deep and 10,000 array elements", () => {
    let deep: unknown = 1;
    for (let level = 0; level < 70; level++) deep = [deep];
    expect(refused(deep)).toEqual([`${Array.from({ length: 64 }, () => "0").join(".")}: a value nested deeper than 64 levels`]);
    expect(refused({ sparse: new Array(2 ** 31) })).toEqual(["sparse: an array of 2147483648 elements (at most 10000)"]);
  });
});
