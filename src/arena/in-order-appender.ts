import type { JsonlAppender } from "../core/jsonl/jsonl-appender.js";

/**
 * Appends values given out of order (as concurrent episodes finish) in index
 * order: each value is written as soon as every lower index has been, so a
 * killed run keeps every finished prefix and the file order never depends on timing.
 */
export class InOrderAppender<T> {
  private readonly waiting = new Map<number, T>();
  private nextIndex = 0;
  private writing: Promise<void> = Promise.resolve();

  constructor(private readonly appender: JsonlAppender) {}

  add(index: number, value: T): void {
    this.waiting.set(index, value);
    const ready: T[] = [];
    while (this.waiting.has(this.nextIndex)) {
      ready.push(this.waiting.get(this.nextIndex) as T);
      this.waiting.delete(this.nextIndex++);
    }
    if (ready.length > 0) this.writing = this.writing.then(() => this.appender.appendMany(ready));
  }

  /** Resolves when everything added so far has been written; rejects if a write failed. */
  flushed(): Promise<void> {
    return this.writing;
  }
}
