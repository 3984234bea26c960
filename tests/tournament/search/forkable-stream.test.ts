import { describe, expect, it } from "vitest";
import { deriveStream } from "../../../src/core/random/random-stream.js";
import { ForkableStream } from "../../../src/tournament/search/forkable-stream.js";

describe("ForkableStream", () => {
  it("draws exactly what the stream it wraps would draw", () => {
    const plain = deriveStream(7, "a");
    const forkable = new ForkableStream(deriveStream(7, "a"));
    expect([forkable.next(), forkable.uint32(), forkable.integer(10), forkable.pick(["x", "y", "z"])]).toEqual([plain.next(), plain.uint32(), plain.integer(10), plain.pick(["x", "y", "z"])]);
  });

  it("rewinds to a saved position, as often as asked, without disturbing the snapshot", () => {
    const stream = new ForkableStream(deriveStream(3, "b"));
    stream.next();
    const saved = stream.state();
    const first = [stream.next(), stream.next()];
    stream.restore(saved);
    expect(stream.state()).toBe(saved);
    expect([stream.next(), stream.next()]).toEqual(first);
    stream.restore(saved);
    expect([stream.next(), stream.next()]).toEqual(first);
  });
});
