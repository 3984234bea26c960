import { describe, expect, it } from "vitest";
import { extractJson } from "../../../src/core/structured/extract-json.js";

describe("extractJson", () => {
  it("parses bare JSON", () => {
    expect(extractJson(' {"a": 1} ')).toEqual({ a: 1 });
    expect(extractJson("[1, 2]")).toEqual([1, 2]);
  });

  it("finds JSON inside prose and code fences, skipping brackets inside strings", () => {
    expect(extractJson('Here is my review:\n```json\n{"note": "a } inside", "ok": true}\n```\nThanks.')).toEqual({ note: "a } inside", ok: true });
  });

  it("skips balanced brackets that are not JSON", () => {
    expect(extractJson('Fill in {placeholder} then {"score": 0.5}')).toEqual({ score: 0.5 });
  });

  it("throws a SyntaxError quoting the text when nothing parses", () => {
    expect(() => extractJson('{"unterminated": ')).toThrowError(SyntaxError);
    expect(() => extractJson("no json here")).toThrowError(/no JSON object or array in the output \("no json here"\)/);
  });
});
