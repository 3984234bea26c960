import { ReadOnlyJournalError } from "./errors/read-only-journal-error.js";
import type { FailedRun } from "./failed-run.js";
import type { FailedRunJournalView } from "./failed-run-journal-view.js";

/** The journal as a solver gets it: runs are frozen copies, append throws ReadOnlyJournalError. */
export class ReadonlyFailedRunJournal implements FailedRunJournalView {
  readonly isReadOnly = true;

  constructor(private readonly source: FailedRunJournalView) {}

  get runs(): readonly FailedRun[] {
    return this.source.runs.map((run) => Object.freeze({ ...run, challenge: Object.freeze({ ...run.challenge }) }));
  }

  append(): never {
    throw new ReadOnlyJournalError("append");
  }

  close(): never {
    throw new ReadOnlyJournalError("close");
  }
}
