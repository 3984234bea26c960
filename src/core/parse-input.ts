import type { z } from "zod";
import { InvalidInputError, UnknownKeyError } from "./errors/index.js";
import { unknownKeyMessage } from "./unknown-key-message.js";

export interface ParseInputOptions {
  /** Turns the path of the first failing field into the name the user knows it by. Default: dotted path. */
  fieldName?: (path: readonly PropertyKey[]) => string;
}

/**
 * Validates input against a schema; the first problem becomes an
 * InvalidInputError naming the field, what was given and what is allowed. An
 * unknown key of a strict object comes first, since a misspelt key is often
 * why another field looks missing: it becomes an UnknownKeyError naming the
 * key's whole path and the nearest valid key.
 */
export function parseInput<Schema extends z.ZodType>(schema: Schema, value: unknown, options: ParseInputOptions = {}): z.output<Schema> {
  const parsed = schema.safeParse(value, { error: unknownKeyMessage });
  if (parsed.success) return parsed.data;
  const fieldName = options.fieldName ?? ((segments) => segments.map(String).join(".") || "(root)");
  const unknownKey = parsed.error.issues.find((issue) => issue.code === "unrecognized_keys");
  if (unknownKey !== undefined) throw new UnknownKeyError(fieldName([...unknownKey.path, unknownKey.keys[0] ?? ""]), unknownKey.message);
  const issue = parsed.error.issues[0];
  const path = issue?.path ?? [];
  let received: unknown = value;
  for (const key of path) received = (received as Record<PropertyKey, unknown> | undefined)?.[key];
  throw new InvalidInputError(fieldName(path), issue?.message ?? "a valid value", received);
}
