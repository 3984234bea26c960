import { open, type FileHandle } from "node:fs/promises";

/**
 * Appends one JSON object per line to a file. Each line goes out in a single
 * `write`, so a killed process leaves at most the last line torn, and every
 * line before it intact.
 */
export class JsonlAppender {
  private constructor(private readonly handle: FileHandle, readonly path: string) {}

  static async open(path: string): Promise<JsonlAppender> {
    return new JsonlAppender(await open(path, "a"), path);
  }

  async append(value: unknown): Promise<void> {
    await this.handle.write(`${JSON.stringify(value)}\n`);
  }

  async appendMany(values: readonly unknown[]): Promise<void> {
    if (values.length === 0) return;
    await this.handle.write(values.map((value) => `${JSON.stringify(value)}\n`).join(""));
  }

  async close(): Promise<void> {
    await this.handle.close();
  }
}
