import { z } from "zod";
import { InvalidInputError } from "../../core/errors/index.js";
import { HashedHeldOutRuleSchema, isHeldOut, parseHeldOutRule } from "../../core/held-out/held-out-rule.js";
import { splitHeldOut as splitItems, type HeldOutSplit } from "../../core/held-out/split-held-out.js";
import { JsonObjectSchema, type JsonObject } from "../../core/json.js";
import { checkDatasetRows, type DatasetColumns, type DatasetRows } from "./check-dataset-rows.js";
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

/** The rows split into those trained on and those held out by a rule; none is both. `rowName` names a row in an error. */
export function splitHeldOut(rows: readonly JsonObject[], heldOut: Exclude<HeldOutOption, { data: unknown }>, seed: number, rowName = (index: number) => `row ${index + 1}`): HeldOutSplit<JsonObject> {
  if (typeof heldOut === "number") {
    const rule = parseHeldOutRule({ rule: "fraction", fraction: heldOut, seed }, { fieldName: (path) => (path[0] === "seed" ? "environment.seed" : "environment.heldOut") });
    return splitItems(rows, (row) => isHeldOut(JSON.stringify(row), rule));
  }
  if ("rule" in heldOut) {
    const { column, ...rule } = heldOut;
    // A row without the column has no key to hash: it would land wherever the text "undefined" does.
    const index = rows.findIndex((row) => typeof row[column] !== "string" && typeof row[column] !== "number");
    if (index >= 0) throw new InvalidInputError("environment.heldOut.column", `a column every row has as text or a number; ${rowName(index)} has columns ${Object.keys(rows[index] as JsonObject).join(", ")}`, column);
    return splitItems(rows, (row) => isHeldOut(String(row[column]), rule));
  }
  const { column, value } = heldOut;
  return splitItems(rows, (row) => row[column] !== undefined && String(row[column]) === String(value));
}

/** What `splitDataset` reads, splits and checks: the dataset environment's options of those names. */
export interface DatasetSplitOptions {
  data: string | readonly JsonObject[];
  heldOut: HeldOutOption;
  seed: number;
  dataFormat?: DatasetFormat | undefined;
  /** The columns every row must hold; the cluster only `data`'s, since nothing reads a held-out row's given apart. */
  columns: DatasetColumns;
}

/**
 * The rows of `data` split by `heldOut`: by its rule, or, given the held-out
 * rows (`{data}`), all of `data` trained on and those held out. Files are read
 * in `dataFormat`, default by their extension. Every row of both is checked
 * here by one checker, so a bad row is refused the same way wherever it came
 * from: the option, the row (`row 3 of data.jsonl`, `held-out row 2`) and its
 * columns.
 */
export async function splitDataset(options: DatasetSplitOptions): Promise<HeldOutSplit<JsonObject>> {
  const { heldOut, columns } = options;
  const data = await rowsOf(options.data, "row", "environment.data", options.dataFormat);
  checkDatasetRows(data, columns);
  let split: HeldOutSplit<JsonObject>;
  if (typeof heldOut === "object" && "data" in heldOut) {
    const given = await rowsOf(heldOut.data, "held-out row", "environment.heldOut.data", options.dataFormat);
    checkDatasetRows(given, { ...columns, cluster: undefined });
    split = { training: [...data.rows], heldOut: [...given.rows] };
  } else {
    split = splitHeldOut(data.rows, heldOut, options.seed, data.rowName);
  }
  if (split.training.length === 0) throw new InvalidInputError("environment.heldOut", "a split that leaves rows to train on", heldOut);
  return split;
}

/** A source's rows (a file read, or the rows given), each named in errors as `<noun> N`, then ` of FILE` when it is one. */
async function rowsOf(source: string | readonly JsonObject[], noun: string, field: string, format: DatasetFormat | undefined): Promise<DatasetRows> {
  if (typeof source !== "string") return { rows: source, rowName: (index) => `${noun} ${index + 1}` };
  return { rows: await readDataset(source, format, field), rowName: (index) => `${noun} ${index + 1} of ${source}` };
}
