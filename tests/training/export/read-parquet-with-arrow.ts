import { readFile } from "node:fs/promises";
import { tableFromIPC, Vector } from "apache-arrow";
import { readParquet } from "parquet-wasm/node";

/** A Parquet file as a second, independent implementation reads it: arrow-rs (parquet-wasm) into Apache Arrow JS. */
export interface ArrowReadback {
  /** Each column's name and Arrow type, e.g. `prompt: List<Struct<{role:Utf8, content:Utf8}>>`. */
  columns: string[];
  /** The rows as plain values: lists as arrays, structs as objects, 64-bit integers as numbers. */
  rows: Record<string, unknown>[];
  /** The footer's key-value metadata. */
  metadata: Map<string, string>;
}

/** Reads a Parquet file with parquet-wasm (Rust arrow-rs compiled to wasm) and apache-arrow, not with hyparquet. */
export async function readParquetWithArrow(path: string): Promise<ArrowReadback> {
  const wasmTable = readParquet(new Uint8Array(await readFile(path)));
  const table = tableFromIPC(wasmTable.intoIPCStream());
  return {
    columns: table.schema.fields.map((field) => `${field.name}: ${String(field.type)}`),
    rows: table.toArray().map((row) => plain(row) as Record<string, unknown>),
    metadata: table.schema.metadata,
  };
}

function plain(value: unknown): unknown {
  if (typeof value === "bigint") return Number(value);
  if (value instanceof Vector) return [...(value as Vector)].map(plain);
  if (value !== null && typeof value === "object" && typeof (value as { toJSON?: unknown }).toJSON === "function") {
    return Object.fromEntries(Object.entries((value as { toJSON: () => Record<string, unknown> }).toJSON()).map(([key, field]) => [key, plain(field)]));
  }
  return value;
}
