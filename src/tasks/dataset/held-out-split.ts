import { z } from "zod";
import { fnv1aText } from "../../core/hashing/fnv1a.js";
import type { JsonObject } from "../../core/json.js";

/**
 * Which rows are held out: a fraction of them (by a seeded FNV-1a hash of each
 * row, so the same rows whatever their order), or those whose `column` holds
 * `value` (default `true`; compared as text, so CSV's `"true"` matches).
 */
export const HeldOutSchema = z.union([
  z.number().min(0).max(1),
  z.strictObject({ column: z.string().min(1), value: z.union([z.string(), z.number(), z.boolean()]).default(true) }),
]);
export type HeldOut = z.input<typeof HeldOutSchema>;

/** The rows split into those trained on and those held out; none is both. */
export function splitHeldOut(rows: readonly JsonObject[], heldOut: z.output<typeof HeldOutSchema>, seed: number): { training: JsonObject[]; heldOut: JsonObject[] } {
  const isHeldOut =
    typeof heldOut === "number"
      ? (row: JsonObject) => fnv1aText(`${seed}\u0000${JSON.stringify(row)}`) / 2 ** 32 < heldOut
      : (row: JsonObject) => row[heldOut.column] !== undefined && String(row[heldOut.column]) === String(heldOut.value);
  const training: JsonObject[] = [];
  const held: JsonObject[] = [];
  for (const row of rows) (isHeldOut(row) ? held : training).push(row);
  return { training, heldOut: held };
}
