import { z } from "zod";
import { isHeldOut, parseHeldOutRule } from "../../core/held-out/held-out-rule.js";
import { splitHeldOut as splitItems, type HeldOutSplit } from "../../core/held-out/split-held-out.js";
import type { JsonObject } from "../../core/json.js";

/**
 * Which rows are held out: a fraction of them (core's `fraction` rule over
 * each row's JSON, seeded, so the same rows whatever their order), or those
 * whose `column` holds `value` (default `true`; compared as text, so CSV's
 * `"true"` matches).
 */
export const HeldOutSchema = z.union([
  z.number().min(0).max(1),
  z.strictObject({ column: z.string().min(1), value: z.union([z.string(), z.number(), z.boolean()]).default(true) }),
]);
export type HeldOut = z.input<typeof HeldOutSchema>;

/** The rows split into those trained on and those held out; none is both. */
export function splitHeldOut(rows: readonly JsonObject[], heldOut: z.output<typeof HeldOutSchema>, seed: number): HeldOutSplit<JsonObject> {
  if (typeof heldOut === "number") {
    const rule = parseHeldOutRule({ rule: "fraction", fraction: heldOut, seed }, { fieldName: (path) => (path[0] === "seed" ? "environment.seed" : "environment.heldOut") });
    return splitItems(rows, (row) => isHeldOut(JSON.stringify(row), rule));
  }
  const { column, value } = heldOut;
  return splitItems(rows, (row) => row[column] !== undefined && String(row[column]) === String(value));
}
