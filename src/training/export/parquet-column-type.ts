/**
 * The type of an exported Parquet column: a string, boolean, 64-bit integer
 * or double, a list of one type, or a struct of named fields. Every value is
 * required (no nulls): a format that needs a value the run lacks refuses the
 * run instead of writing an empty cell.
 */
export type ParquetColumnType =
  | { readonly kind: "string" }
  | { readonly kind: "boolean" }
  | { readonly kind: "int64" }
  | { readonly kind: "double" }
  | { readonly kind: "list"; readonly element: ParquetColumnType }
  | { readonly kind: "struct"; readonly fields: readonly ParquetField[] };

/** A named column, or a named field of a struct. */
export interface ParquetField {
  readonly name: string;
  readonly type: ParquetColumnType;
}

export const STRING: ParquetColumnType = { kind: "string" };
export const BOOLEAN: ParquetColumnType = { kind: "boolean" };
export const INT64: ParquetColumnType = { kind: "int64" };
export const DOUBLE: ParquetColumnType = { kind: "double" };

/** Chat messages as TRL and verl read them: a list of `{role, content}` structs. */
export const MESSAGES: ParquetColumnType = {
  kind: "list",
  element: { kind: "struct", fields: [{ name: "role", type: STRING }, { name: "content", type: STRING }] },
};
