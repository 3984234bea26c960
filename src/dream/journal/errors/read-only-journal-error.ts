import { SelfplayError } from "../../../core/errors/index.js";

/** A write through the solver's read-only view of the failed-run journal. */
export class ReadOnlyJournalError extends SelfplayError {
  override readonly name = "ReadOnlyJournalError";
  constructor(readonly operation: string) {
    super(`journal.${operation}: this is the solver's read-only view; the cycle runner records failed runs, not the solver`);
  }
}
