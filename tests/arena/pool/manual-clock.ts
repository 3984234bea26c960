import type { TimeoutClock } from "../../../src/arena/pool/pausable-timeout.js";

/** A clock that moves only when the test says: timers fire inside `advance`. */
export class ManualClock implements TimeoutClock {
  private time = 0;
  private nextHandle = 0;
  private readonly timers = new Map<number, { at: number; callback: () => void }>();

  now(): number {
    return this.time;
  }

  setTimeout(callback: () => void, milliseconds: number): unknown {
    const handle = this.nextHandle++;
    this.timers.set(handle, { at: this.time + milliseconds, callback });
    return handle;
  }

  clearTimeout(handle: unknown): void {
    this.timers.delete(handle as number);
  }

  /** Timers waiting to fire. */
  get pending(): number {
    return this.timers.size;
  }

  advance(milliseconds: number): void {
    this.time += milliseconds;
    for (const [handle, timer] of [...this.timers].sort(([, a], [, b]) => a.at - b.at)) {
      if (timer.at > this.time) continue;
      this.timers.delete(handle);
      timer.callback();
    }
  }
}
