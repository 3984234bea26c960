import type { ParquetField } from "./parquet-column-type.js";

/** One exported row: a value for every column, of the column's type (int64 columns take safe integers). */
export type ExportRow = Readonly<Record<string, unknown>>;

/** A format's rows and columns, and what of the run it left out and why. */
export interface ExportTable {
  readonly columns: readonly ParquetField[];
  readonly rows: readonly ExportRow[];
  /** What was left out, by reason (`failedRollouts`, `tiedGroups` …): counts, for the summary. */
  readonly skipped: Readonly<Record<string, number>>;
}
