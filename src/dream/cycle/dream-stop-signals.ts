import { readFile, stat } from "node:fs/promises";

/** Why a dream loop stopped. */
export type DreamStopReason = "signal" | "stop-file" | "inbox" | "max-cycles";

/** Where a loop looks for its stop signals. */
export interface DreamStopSignalsOptions {
  /** Aborted on SIGINT by the CLI (or by a test). */
  signal?: AbortSignal;
  /** A file whose existence stops the loop (`<out>/STOP`). */
  stopFile: string;
  /**
   * A file where any line appended after the loop started stops it
   * (`<out>/dream_inbox.md`): the seed's "any user message interrupts".
   */
  inboxFile: string;
}

/** Checks the loop's stop signals; the inbox's line count at creation is the baseline. */
export class DreamStopSignals {
  private constructor(private readonly options: DreamStopSignalsOptions, private readonly inboxBaseline: number) {}

  static async watch(options: DreamStopSignalsOptions): Promise<DreamStopSignals> {
    return new DreamStopSignals(options, await lineCount(options.inboxFile));
  }

  /** The first signal that is up, or null. */
  async check(): Promise<DreamStopReason | null> {
    if (this.options.signal?.aborted) return "signal";
    if (await exists(this.options.stopFile)) return "stop-file";
    if ((await lineCount(this.options.inboxFile)) > this.inboxBaseline) return "inbox";
    return null;
  }
}

async function exists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch {
    return false;
  }
}

/** Non-empty lines; a missing file has none. */
async function lineCount(path: string): Promise<number> {
  try {
    return (await readFile(path, "utf8")).split("\n").filter((line) => line.trim() !== "").length;
  } catch {
    return 0;
  }
}
