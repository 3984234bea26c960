import type { JsonValue } from "../../core/json.js";

/** One field where two JSON values differ: its dotted path and both values. */
export interface JsonDifference {
  path: string;
  before: JsonValue | undefined;
  after: JsonValue | undefined;
}

/** The leaves where `after` differs from `before` (objects compared key by key, arrays and scalars whole), in key order. */
export function jsonDifferences(before: JsonValue | undefined, after: JsonValue | undefined, path = ""): JsonDifference[] {
  if (isObject(before) && isObject(after)) {
    const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])];
    return keys.flatMap((key) => jsonDifferences(before[key], after[key], path === "" ? key : `${path}.${key}`));
  }
  return JSON.stringify(before) === JSON.stringify(after) ? [] : [{ path: path === "" ? "(root)" : path, before, after }];
}

function isObject(value: JsonValue | undefined): value is { [key: string]: JsonValue } {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
