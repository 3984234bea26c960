import { RandomStream, type RandomStreamState } from "../../core/random/random-stream.js";

/**
 * A RandomStream whose position can be saved and restored from outside, so a
 * search can keep one agent per honest citizen and rewind its stream for each
 * branch instead of rebuilding the agent. It draws exactly what the stream it
 * wraps would draw: an agent given one behaves as an agent given the stream.
 */
export class ForkableStream extends RandomStream {
  private current: RandomStream;

  constructor(source: RandomStream) {
    // The base generator is never used: every draw goes to `current`.
    super("");
    this.current = source;
  }

  override next(): number {
    return this.current.next();
  }

  override uint32(): number {
    return this.current.uint32();
  }

  override state(): RandomStreamState {
    return this.current.state();
  }

  /** Continue from a position taken with `state()`. */
  restore(state: RandomStreamState): void {
    this.current = new RandomStream("", state);
  }
}
