import type { z } from "zod";

/**
 * The valid key closest to `key` by edit distance (case-insensitive
 * Levenshtein), or undefined when none is close enough to be a likely
 * misspelling: at most 2 edits, or a third of the key's length for longer keys.
 */
export function nearestKey(key: string, validKeys: readonly string[]): string | undefined {
  const limit = Math.max(2, Math.floor(key.length / 3));
  let best: { key: string; distance: number } | undefined;
  for (const candidate of validKeys) {
    const distance = editDistance(key.toLowerCase(), candidate.toLowerCase());
    if (distance <= limit && (best === undefined || distance < best.distance)) best = { key: candidate, distance };
  }
  return best?.key;
}

/**
 * A zod error map for strict objects' `unrecognized_keys` issues: the message
 * says what to do about the first unknown key — `did you mean "learningRate"?`,
 * or the valid keys when none is close. Pass it as `schema.safeParse(value, {
 * error: unknownKeyMessage })`; other issues keep zod's own message.
 */
export const unknownKeyMessage: z.core.$ZodErrorMap = (issue) => {
  if (issue.code !== "unrecognized_keys") return undefined;
  const [key = ""] = issue.keys;
  const validKeys = shapeKeys(issue.inst);
  const nearest = nearestKey(key, validKeys);
  // A few of the other unknown keys, not all: a hostile file can hold hundreds of thousands.
  const listed = issue.keys.slice(1, 6).join(", ");
  const others = issue.keys.length > 1 ? ` (unknown here too: ${listed}${issue.keys.length > 6 ? ` and ${issue.keys.length - 6} more` : ""})` : "";
  if (nearest !== undefined) return `unknown key; did you mean "${nearest}"?${others}`;
  return `unknown key; remove it${validKeys.length > 0 ? ` (valid keys here: ${validKeys.join(", ")})` : ""}${others}`;
};

/** The keys an object schema declares; none for a schema without a shape. */
function shapeKeys(schema: unknown): string[] {
  const shape = (schema as { _zod?: { def?: { shape?: Record<string, unknown> } } } | undefined)?._zod?.def?.shape;
  return shape === undefined ? [] : Object.keys(shape);
}

/** Levenshtein distance: insertions, deletions and substitutions, one row at a time. */
function editDistance(from: string, to: string): number {
  let previous = Array.from({ length: to.length + 1 }, (_, index) => index);
  for (let row = 1; row <= from.length; row++) {
    const current = [row];
    for (let column = 1; column <= to.length; column++) {
      const substitution = (previous[column - 1] ?? 0) + (from[row - 1] === to[column - 1] ? 0 : 1);
      current.push(Math.min((previous[column] ?? 0) + 1, (current[column - 1] ?? 0) + 1, substitution));
    }
    previous = current;
  }
  return previous[to.length] ?? 0;
}
