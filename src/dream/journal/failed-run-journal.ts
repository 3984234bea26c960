import { readFile, truncate } from "node:fs/promises";
import { JsonlAppender } from "../../core/jsonl/jsonl-appender.js";
import { readJsonl } from "../../core/jsonl/read-jsonl.js";
import { parseInput } from "../../core/parse-input.js";
import { FailedRunSchema, type FailedRun } from "./failed-run.js";
import type { FailedRunJournalView } from "./failed-run-journal-view.js";
import { ReadonlyFailedRunJournal } from "./readonly-failed-run-journal.js";

/**
 * The append-only JSONL store of failed runs (the seed's journal) that
 * journal mining reads. Opening it drops a torn last line a killed cycle
 * left behind: appending after it would glue the next record onto the torn
 * text and turn one lost record into a corrupt file.
 */
export class FailedRunJournal implements FailedRunJournalView {
  readonly isReadOnly = false;

  private constructor(
    readonly path: string,
    private readonly appender: JsonlAppender,
    private readonly records: FailedRun[],
    /** The torn last line dropped on open, if there was one. */
    readonly droppedTornLine: string | null,
  ) {}

  /** Opens (creating when absent) the journal at `path`. */
  static async open(path: string): Promise<FailedRunJournal> {
    let records: FailedRun[] = [];
    let torn: string | null = null;
    try {
      const contents = await readJsonl(path, FailedRunSchema);
      records = contents.records;
      torn = contents.tornLastLine;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
    }
    if (torn !== null) {
      // Cut at the last newline in bytes: the torn text may end inside a multi-byte character.
      const bytes = await readFile(path);
      await truncate(path, bytes.lastIndexOf(0x0a) + 1);
    }
    return new FailedRunJournal(path, await JsonlAppender.open(path), records, torn);
  }

  get runs(): readonly FailedRun[] {
    return this.records;
  }

  /** Records a failed run (validated first: a bad record never reaches the file). */
  async append(run: FailedRun): Promise<void> {
    const checked = parseInput(FailedRunSchema, run, { fieldName: (segments) => `failedRun.${segments.map(String).join(".")}` });
    await this.appender.append(checked);
    this.records.push(checked);
  }

  /** The solver's view: reads pass through, append throws ReadOnlyJournalError. */
  readonlyView(): ReadonlyFailedRunJournal {
    return new ReadonlyFailedRunJournal(this);
  }

  async close(): Promise<void> {
    await this.appender.close();
  }
}
