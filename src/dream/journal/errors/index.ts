export { ReadOnlyJournalError } from "./read-only-journal-error.js";
