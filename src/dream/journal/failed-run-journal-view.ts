import type { FailedRun } from "./failed-run.js";

/** Reading the journal; the journal and its read-only view both offer it. */
export interface FailedRunJournalView {
  /** True on the solver's view. */
  readonly isReadOnly: boolean;
  /** Every failed run recorded, oldest first. */
  readonly runs: readonly FailedRun[];
}
