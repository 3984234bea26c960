import type { z } from "zod";
import { InvalidInputError } from "./errors.js";

export interface ParseInputOptions {
  /** Turns the path of the first failing field into the name the user knows it by. Default: dotted path. */
  fieldName?: (path: readonly PropertyKey[]) => string;
}

/**
 * Validates input against a schema; the first problem becomes an
 * InvalidInputError naming the field, what was given and what is allowed.
 */
export function parseInput<Schema extends z.ZodType>(schema: Schema, value: unknown, options: ParseInputOptions = {}): z.output<Schema> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const path = issue?.path ?? [];
  let received: unknown = value;
  for (const key of path) received = (received as Record<PropertyKey, unknown> | undefined)?.[key];
  const fieldName = options.fieldName ?? ((segments) => segments.map(String).join(".") || "(root)");
  throw new InvalidInputError(fieldName(path), issue?.message ?? "a valid value", received);
}
