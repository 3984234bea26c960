import { describe, expect, it } from "vitest";
import { fnv1aText } from "../../../src/core/hashing/fnv1a.js";

describe("fnv1aText", () => {
  it("matches the published test vectors", () => {
    expect(fnv1aText("")).toBe(0x811c9dc5);
    expect(fnv1aText("a")).toBe(0xe40c292c);
    expect(fnv1aText("foobar")).toBe(0xbf9cf968);
  });
});
