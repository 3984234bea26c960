import { describe, expect, it } from "vitest";
import { PausableTimeout } from "../../../src/arena/pool/pausable-timeout.js";
import { ManualClock } from "./manual-clock.js";

describe("PausableTimeout", () => {
  it("expires after its budget of unpaused time; paused time does not count, and pauses nest", () => {
    const clock = new ManualClock();
    let expired = 0;
    const timeout = new PausableTimeout(1000, () => expired++, clock);
    timeout.start();
    clock.advance(300);
    timeout.pause();
    timeout.pause();
    clock.advance(10_000);
    timeout.resume();
    clock.advance(10_000);
    expect(expired).toBe(0);
    timeout.resume();
    clock.advance(699);
    expect(expired).toBe(0);
    clock.advance(1);
    expect(expired).toBe(1);
  });

  it("never fires once stopped, and does not start while paused", () => {
    const clock = new ManualClock();
    let expired = 0;
    const stopped = new PausableTimeout(10, () => expired++, clock);
    stopped.start();
    stopped.stop();
    clock.advance(100);
    const paused = new PausableTimeout(10, () => expired++, clock);
    paused.pause();
    paused.start();
    clock.advance(100);
    expect(expired).toBe(0);
    expect(clock.pending).toBe(0);
  });
});
