import { createHash } from "node:crypto";

/**
 * JSON with every object's keys in code-unit order and no whitespace: the
 * same value always gives the same bytes, whatever order its keys were built
 * in. Values are the log's own (strings, integers, booleans, arrays, objects);
 * a non-integer number is refused, since money and counts are whole.
 */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value === "string" || typeof value === "boolean") return JSON.stringify(value);
  if (typeof value === "number") {
    if (!Number.isSafeInteger(value)) throw new Error(`canonicalJson: ${value} is not a safe integer`);
    return String(value);
  }
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, entry]) => entry !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, entry]) => `${JSON.stringify(key)}:${canonicalJson(entry)}`).join(",")}}`;
  }
  throw new Error(`canonicalJson: cannot encode a ${typeof value}`);
}

/** SHA-256 (hex) of the canonical JSON of an event log. */
export function eventLogHash(events: readonly unknown[]): string {
  return createHash("sha256").update(canonicalJson(events)).digest("hex");
}
