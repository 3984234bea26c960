import type { z } from "zod";
import { parseInput } from "../core/parse-input.js";

/** Flag name as the user typed it, for error messages: `batchSize` → `--batch-size`. */
export function flagName(field: string): string {
  return `--${field.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`)}`;
}

/** Validates parsed flags against a schema; the first problem becomes an InvalidInputError naming the flag. */
export function parseOptions<Schema extends z.ZodType>(schema: Schema, raw: unknown): z.infer<Schema> {
  return parseInput(schema, raw, { fieldName: (path) => flagName(String(path[0] ?? "options")) });
}
