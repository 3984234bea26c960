import type { LlamaContextSequence } from "node-llama-cpp";

/** Hands out a context's sequences one request at a time; waiters are served in arrival order. */
export class SequencePool {
  private readonly free: LlamaContextSequence[];
  private readonly waiting: Array<(sequence: LlamaContextSequence) => void> = [];

  constructor(sequences: readonly LlamaContextSequence[]) {
    this.free = [...sequences];
  }

  acquire(): Promise<LlamaContextSequence> {
    const sequence = this.free.pop();
    if (sequence) return Promise.resolve(sequence);
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  release(sequence: LlamaContextSequence): void {
    const next = this.waiting.shift();
    if (next) next(sequence);
    else this.free.push(sequence);
  }
}
