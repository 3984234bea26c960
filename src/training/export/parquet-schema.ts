import type { SchemaElement } from "hyparquet-writer";
import type { ParquetColumnType, ParquetField } from "./parquet-column-type.js";

/**
 * The flat Parquet schema (the footer's depth-first list of elements) of
 * these columns. Lists use the standard three-level layout (`LIST` group,
 * repeated `list`, `element`) that Arrow, pyarrow and Hugging Face datasets
 * read as list columns; strings are UTF-8 byte arrays.
 */
export function parquetSchema(columns: readonly ParquetField[]): SchemaElement[] {
  return [{ name: "root", num_children: columns.length }, ...columns.flatMap((column) => fieldElements(column.name, column.type))];
}

function fieldElements(name: string, type: ParquetColumnType): SchemaElement[] {
  switch (type.kind) {
    case "string":
      return [{ name, type: "BYTE_ARRAY", converted_type: "UTF8", logical_type: { type: "STRING" }, repetition_type: "REQUIRED" }];
    case "boolean":
      return [{ name, type: "BOOLEAN", repetition_type: "REQUIRED" }];
    case "int64":
      return [{ name, type: "INT64", repetition_type: "REQUIRED" }];
    case "double":
      return [{ name, type: "DOUBLE", repetition_type: "REQUIRED" }];
    case "list":
      return [
        { name, converted_type: "LIST", logical_type: { type: "LIST" }, repetition_type: "REQUIRED", num_children: 1 },
        { name: "list", repetition_type: "REPEATED", num_children: 1 },
        ...fieldElements("element", type.element),
      ];
    case "struct":
      return [{ name, repetition_type: "REQUIRED", num_children: type.fields.length }, ...type.fields.flatMap((field) => fieldElements(field.name, field.type))];
  }
}
