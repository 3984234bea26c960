import { readFile } from "node:fs/promises";
import { extname } from "node:path";
import { parse as parseCsv } from "csv-parse/sync";
import { parquetReadObjects } from "hyparquet";
import { z } from "zod";
import { InvalidInputError } from "../../core/errors/index.js";
import type { JsonObject, JsonValue } from "../../core/json.js";

/** The formats a dataset file may have: JSON Lines, a JSON array of objects, CSV with a header row, or Parquet. */
export const DatasetFormatSchema = z.enum(["jsonl", "json", "csv", "parquet"]);
export type DatasetFormat = z.infer<typeof DatasetFormatSchema>;

const EXTENSIONS: Readonly<Record<string, DatasetFormat>> = { ".jsonl": "jsonl", ".ndjson": "jsonl", ".json": "json", ".csv": "csv", ".parquet": "parquet" };

/** The format of `path` by its extension, or undefined. */
export function datasetFormatOf(path: string): DatasetFormat | undefined {
  return EXTENSIONS[extname(path).toLowerCase()];
}

/**
 * The rows of a dataset file, as JSON objects (CSV cells are strings;
 * Parquet's 64-bit integers become numbers, or strings beyond 2^53, and its
 * dates ISO strings). `format` defaults to the file's extension. Anything
 * unreadable is an InvalidInputError naming `field` and, for JSONL, the line.
 */
export async function readDataset(path: string, format: DatasetFormat | undefined = datasetFormatOf(path), field = "environment.data"): Promise<JsonObject[]> {
  if (format === undefined) throw new InvalidInputError(field, `a .jsonl, .json, .csv or .parquet file (or say which with \`dataFormat\`)`, path);
  let bytes: Buffer;
  try {
    bytes = await readFile(path);
  } catch (error) {
    throw new InvalidInputError(field, `a readable ${format} file (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`, path);
  }
  const rows = await parseRows(bytes, format, path, field);
  rows.forEach((row, index) => {
    if (typeof row !== "object" || row === null || Array.isArray(row)) throw new InvalidInputError(`${field} (${path}, row ${index + 1})`, "an object of columns", row);
  });
  if (rows.length === 0) throw new InvalidInputError(field, "a file with at least one row", path);
  return rows.map((row) => toJson(row) as JsonObject);
}

async function parseRows(bytes: Buffer, format: DatasetFormat, path: string, field: string): Promise<unknown[]> {
  const text = () => bytes.toString("utf8");
  try {
    switch (format) {
      case "jsonl":
        return text()
          .split("\n")
          .flatMap((line, index) => {
            if (line.trim() === "") return [];
            try {
              return [JSON.parse(line) as unknown];
            } catch {
              throw new InvalidInputError(`${field} (${path}:${index + 1})`, "a JSON object on every non-empty line", line.slice(0, 80));
            }
          });
      case "json": {
        const value = JSON.parse(text()) as unknown;
        if (!Array.isArray(value)) throw new InvalidInputError(field, "a JSON array of objects", path);
        return value;
      }
      case "csv":
        return parseCsv(text(), { columns: true, skip_empty_lines: true, bom: true }) as unknown[];
      case "parquet":
        return await parquetReadObjects({ file: new Uint8Array(bytes).buffer });
    }
  } catch (error) {
    if (error instanceof InvalidInputError) throw error;
    throw new InvalidInputError(field, `a readable ${format} file (${(error as Error).message})`, path);
  }
}

/** A parsed cell as JSON: bigint → number (string beyond 2^53), Date → ISO string, bytes → UTF-8 text. */
function toJson(value: unknown): JsonValue {
  if (typeof value === "bigint") return Number.isSafeInteger(Number(value)) ? Number(value) : value.toString();
  if (value instanceof Date) return value.toISOString();
  if (value instanceof Uint8Array) return new TextDecoder().decode(value);
  if (Array.isArray(value)) return value.map(toJson);
  if (typeof value === "number") return Number.isFinite(value) ? value : null;
  if (value === undefined) return null;
  if (typeof value === "object" && value !== null) return Object.fromEntries(Object.entries(value).map(([key, cell]) => [key, toJson(cell)]));
  return value as JsonValue;
}
