import { z } from "zod";
import { InvalidInputError } from "../../core/errors/index.js";
import { HashedHeldOutRuleSchema, isHeldOut, parseHeldOutRule } from "../../core/held-out/held-out-rule.js";
import { splitHeldOut as splitItems, type HeldOutSplit } from "../../core/held-out/split-held-out.js";
import { JsonObjectSchema, type JsonObject } from "../../core/json.js";
import { readDataset, type DatasetFormat } from "./read-dataset.js";

/**
 * Which rows are held out: a fraction of them (core's `fraction` rule over
 * each row's JSON, seeded, so the same rows whatever their order); those
 * whose `column` holds `value` (default `true`; compared as text, so CSV's
 * `"true"` matches); those whose `column`'s text hashes to 0 mod `modulus`
 * (core's `hashed` rule: `{rule: "hashed", column, modulus}`, modulus default
 * 10); or rows given apart (`{data}`: a file or, from code, an array), in
 * which case every row of `data` is trained on.
 */
export const HeldOutSchema = z.union(
  [
    z.number().min(0).max(1),
    z.strictObject({ column: z.string().min(1), value: z.union([z.string(), z.number(), z.boolean()]).default(true) }),
    HashedHeldOutRuleSchema.extend({ column: z.string().min(1) }),
    z.strictObject({ data: z.union([z.string().min(1), z.array(JsonObjectSchema).min(1, "at least one row")]) }),
  ],
  { error: 'a fraction in [0, 1], {"column", "value"?}, {"rule": "hashed", "column", "modulus"?} or {"data": a file or rows}' },
);
export type HeldOut = z.input<typeof HeldOutSchema>;
type HeldOutOption = z.output<typeof HeldOutSchema>;

/** The rows split into those trained on and those held out by a rule; none is both. */
export function splitHeldOut(rows: readonly JsonObject[], heldOut: Exclude<HeldOutOption, { data: unknown }>, seed: number): HeldOutSplit<JsonObject> {
  if (typeof heldOut === "number") {
    const rule = parseHeldOutRule({ rule: "fraction", fraction: heldOut, seed }, { fieldName: (path) => (path[0] === "seed" ? "environment.seed" : "environment.heldOut") });
    return splitItems(rows, (row) => isHeldOut(JSON.stringify(row), rule));
  }
  if ("rule" in heldOut) {
    const { column, ...rule } = heldOut;
    // A row without the column has no key to hash: it would land wherever the text "undefined" does.
    const index = rows.findIndex((row) => typeof row[column] !== "string" && typeof row[column] !== "number");
    if (index >= 0) throw new InvalidInputError("environment.heldOut.column", `a column every row has as text or a number; row ${index + 1} has columns ${Object.keys(rows[index] as JsonObject).join(", ")}`, column);
    return splitItems(rows, (row) => isHeldOut(String(row[column]), rule));
  }
  const { column, value } = heldOut;
  return splitItems(rows, (row) => row[column] !== undefined && String(row[column]) === String(value));
}

/**
 * The rows split by `heldOut`: by its rule, or, given the held-out rows
 * (`{data}`), all of `rows` trained on and those (a file read in `dataFormat`,
 * default by its extension) held out.
 */
export async function splitDataset(rows: readonly JsonObject[], heldOut: HeldOutOption, options: { seed: number; dataFormat?: DatasetFormat | undefined }): Promise<HeldOutSplit<JsonObject>> {
  if (typeof heldOut === "number" || !("data" in heldOut)) return splitHeldOut(rows, heldOut, options.seed);
  return { training: [...rows], heldOut: typeof heldOut.data === "string" ? await readDataset(heldOut.data, options.dataFormat, "environment.heldOut.data") : heldOut.data };
}
