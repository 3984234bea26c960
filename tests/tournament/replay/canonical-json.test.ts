import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { canonicalJson, eventLogHash } from "../../../src/tournament/replay/canonical-json.js";

describe("canonicalJson", () => {
  it("gives the same bytes whatever order the keys were built in, nested too, without whitespace", () => {
    expect(canonicalJson({ b: 1, a: { d: [true, null, "x"], c: 2 } })).toBe('{"a":{"c":2,"d":[true,null,"x"]},"b":1}');
    expect(canonicalJson({ a: { c: 2, d: [true, null, "x"] }, b: 1 })).toBe(canonicalJson({ b: 1, a: { d: [true, null, "x"], c: 2 } }));
  });

  it("orders keys by code unit, not by locale", () => {
    expect(canonicalJson({ b: 0, B: 0, a: 0, é: 0, Z: 0 })).toBe('{"B":0,"Z":0,"a":0,"b":0,"é":0}');
  });

  it("leaves out undefined fields, as JSON.stringify does", () => {
    expect(canonicalJson({ a: undefined, b: 1 })).toBe('{"b":1}');
  });

  it("refuses non-integers: money and counts are whole", () => {
    expect(() => canonicalJson({ amount: 1.5 })).toThrow(/1\.5 is not a safe integer/);
    expect(() => canonicalJson(Number.NaN)).toThrow();
    expect(() => canonicalJson(2 ** 60)).toThrow();
  });
});

describe("eventLogHash", () => {
  it("is the SHA-256 of the log's canonical JSON", () => {
    const log = [{ seq: 0, round: 0, type: "passed", actor: "c0" }];
    expect(eventLogHash(log)).toBe(createHash("sha256").update('[{"actor":"c0","round":0,"seq":0,"type":"passed"}]').digest("hex"));
  });
});
