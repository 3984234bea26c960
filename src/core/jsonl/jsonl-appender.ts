import { open, type FileHandle } from "node:fs/promises";

/**
 * Appends one JSON object per line to a file. Each batch of lines goes out in
 * one `write` (repeated only if the OS writes part of it), so a killed process
 * leaves at most the last line torn and every line before it intact. Appends
 * are queued, so calls that are not awaited one by one still land in call order.
 */
export class JsonlAppender {
  private queue: Promise<void> = Promise.resolve();

  private constructor(private readonly handle: FileHandle, readonly path: string) {}

  static async open(path: string): Promise<JsonlAppender> {
    return new JsonlAppender(await open(path, "a"), path);
  }

  append(value: unknown): Promise<void> {
    return this.appendMany([value]);
  }

  appendMany(values: readonly unknown[]): Promise<void> {
    if (values.length === 0) return this.queue;
    const bytes = Buffer.from(values.map((value) => `${JSON.stringify(value)}\n`).join(""));
    const written = this.queue.then(() => this.writeAll(bytes));
    // A failed write rejects its own caller; later appends still run.
    this.queue = written.catch(() => undefined);
    return written;
  }

  async close(): Promise<void> {
    await this.queue;
    await this.handle.close();
  }

  private async writeAll(bytes: Buffer): Promise<void> {
    let offset = 0;
    while (offset < bytes.length) {
      const { bytesWritten } = await this.handle.write(bytes, offset, bytes.length - offset);
      offset += bytesWritten;
    }
  }
}
