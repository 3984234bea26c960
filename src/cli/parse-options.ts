import type { z } from "zod";
import { InvalidInputError } from "../core/errors.js";

/** Flag name as the user typed it, for error messages: `batchSize` → `--batch-size`. */
export function flagName(field: string): string {
  return `--${field.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`)}`;
}

/** Validates parsed flags against a schema; the first problem becomes an InvalidInputError naming the flag. */
export function parseOptions<Schema extends z.ZodType>(schema: Schema, raw: unknown): z.infer<Schema> {
  const parsed = schema.safeParse(raw);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const field = String(issue?.path[0] ?? "options");
  const received = (raw as Record<string, unknown> | undefined)?.[field];
  throw new InvalidInputError(flagName(field), issue?.message ?? "a valid value", received);
}
