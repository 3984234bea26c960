import { parquetWriteBuffer } from "hyparquet-writer";
import type { ExportTable } from "./export-table.js";
import type { ParquetColumnType } from "./parquet-column-type.js";
import { parquetSchema } from "./parquet-schema.js";

/**
 * A table as the bytes of one Parquet file (snappy-compressed pages, through
 * hyparquet-writer), with the format's name in the footer's key-value
 * metadata under `selfplay.format`.
 */
export function encodeParquet(table: ExportTable, format: string): Uint8Array {
  const buffer = parquetWriteBuffer({
    schema: parquetSchema(table.columns),
    columnData: table.columns.map((column) => ({ name: column.name, data: table.rows.map((row) => parquetValue(column.type, row[column.name], column.name)) })),
    kvMetadata: [{ key: "selfplay.format", value: format }],
    createdBy: "selfplay export (hyparquet-writer)",
  });
  return new Uint8Array(buffer);
}

/** A row's value as the writer takes it: int64 as a bigint, lists and structs converted all the way down. */
function parquetValue(type: ParquetColumnType, value: unknown, path: string): unknown {
  if (value === undefined || value === null) throw new Error(`export: ${path} has no value (every exported column is required)`);
  switch (type.kind) {
    case "int64":
      return BigInt(value as number);
    case "list":
      return (value as readonly unknown[]).map((element, index) => parquetValue(type.element, element, `${path}[${index}]`));
    case "struct": {
      const record = value as Readonly<Record<string, unknown>>;
      return Object.fromEntries(type.fields.map((field) => [field.name, parquetValue(field.type, record[field.name], `${path}.${field.name}`)]));
    }
    default:
      return value;
  }
}
