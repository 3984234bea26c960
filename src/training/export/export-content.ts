/** A format's file contents, and what of the input it covers. */
export interface ExportContent {
  /** The file's bytes (Parquet) or text (JSONL). */
  content: Uint8Array | string;
  /** Rows (for JSONL, lines) in it. */
  rows: number;
  /** What was left out, by reason: counts. */
  skipped: Readonly<Record<string, number>>;
  /** Input files besides rollouts.jsonl whose torn last line was left out. */
  tornFiles?: readonly string[];
}
