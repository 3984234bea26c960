/** The clock a PausableTimeout reads; injected so tests can drive time. */
export interface TimeoutClock {
  now(): number;
  setTimeout(callback: () => void, milliseconds: number): unknown;
  clearTimeout(handle: unknown): void;
}

export const SYSTEM_CLOCK: TimeoutClock = {
  now: () => performance.now(),
  setTimeout: (callback, milliseconds) => setTimeout(callback, milliseconds),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

/**
 * A timeout whose clock stops while paused: an episode's budget counts its own
 * work, not the time its model calls wait for the engine. Pauses nest.
 */
export class PausableTimeout {
  private remaining: number;
  private pauses = 0;
  private startedAt = 0;
  private handle: unknown;
  private stopped = false;

  constructor(
    milliseconds: number,
    private readonly onExpire: () => void,
    private readonly clock: TimeoutClock = SYSTEM_CLOCK,
  ) {
    this.remaining = milliseconds;
  }

  start(): void {
    if (this.stopped || this.pauses > 0 || this.handle !== undefined) return;
    this.startedAt = this.clock.now();
    this.handle = this.clock.setTimeout(() => {
      this.handle = undefined;
      this.stopped = true;
      this.onExpire();
    }, Math.max(0, this.remaining));
  }

  pause(): void {
    this.pauses++;
    if (this.handle === undefined) return;
    this.clock.clearTimeout(this.handle);
    this.handle = undefined;
    this.remaining -= this.clock.now() - this.startedAt;
  }

  resume(): void {
    if (this.pauses === 0) return;
    this.pauses--;
    this.start();
  }

  stop(): void {
    this.stopped = true;
    if (this.handle !== undefined) this.clock.clearTimeout(this.handle);
    this.handle = undefined;
  }
}
