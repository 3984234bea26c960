import { RandomStream, type RandomStreamState } from "../../core/random/random-stream.js";

/**
 * A RandomStream whose position can be saved and restored from outside, so a
 * search can keep one agent per honest citizen and rewind its stream for each
 * branch instead of rebuilding the agent. It draws exactly what the stream it
 * wraps would draw: an agent given one behaves as an agent given the stream.
 */
export class ForkableStream extends RandomStream {
  private current: RandomStream | null;
  /** Where `current` starts when it is next needed; rebuilding a generator costs more than most branches draw. */
  private pending: RandomStreamState | null = null;

  constructor(source: RandomStream) {
    // The base generator is never used: every draw goes to the wrapped stream.
    super("");
    this.current = source;
  }

  override next(): number {
    return this.stream().next();
  }

  override uint32(): number {
    return this.stream().uint32();
  }

  /** The position; a snapshot never changed afterwards, so one restored and not drawn from is handed back as is. */
  override state(): RandomStreamState {
    return this.pending ?? this.stream().state();
  }

  /** Continue from a position taken with `state()`. */
  restore(state: RandomStreamState): void {
    this.pending = state;
    this.current = null;
  }

  private stream(): RandomStream {
    if (this.current === null) {
      this.current = new RandomStream("", this.pending as RandomStreamState);
      this.pending = null;
    }
    return this.current;
  }
}
