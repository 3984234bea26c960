import { z } from "zod";
import type { JsonValue } from "../../core/json.js";
import { UnknownActionError } from "../errors/index.js";
import { comparePaths } from "./compare-paths.js";
import { fieldName, type FieldProblem } from "./field-problem.js";
import { readJson } from "./read-json.js";
import type { RefusedSubmission } from "./refused-submission.js";

/** Citizen ids are `c0 … c(N−1)`. */
export const CitizenIdSchema = z.string().regex(/^c(0|[1-9]\d{0,3})$/, "a citizen id like \"c0\"");
export const ProposalIdSchema = z.string().regex(/^p(0|[1-9]\d{0,5})$/, "a proposal id like \"p0\"");
const shortText = z.string().max(200, "at most 200 characters");

/**
 * The closed action vocabulary. Every action names its actor; money is whole
 * units. An amendment's `changes` is a patch of kernel parameters, checked
 * against the kernel by the legality gate (so a patch the kernel forbids is a
 * rejection with its article, not a parse error).
 */
export const ActionSchema = z.discriminatedUnion("type", [
  z.strictObject({ type: z.literal("ProposeSpend"), actor: CitizenIdSchema, amount: z.int().min(1).max(Number.MAX_SAFE_INTEGER), recipient: CitizenIdSchema, memo: shortText.default("") }),
  z.strictObject({ type: z.literal("ProposeAmendment"), actor: CitizenIdSchema, changes: z.record(z.string(), z.union([z.int(), z.boolean()])) }),
  z.strictObject({ type: z.literal("Vote"), actor: CitizenIdSchema, proposalId: ProposalIdSchema, support: z.boolean() }),
  z.strictObject({ type: z.literal("DeclareEmergency"), actor: CitizenIdSchema, reason: shortText.default("") }),
  z.strictObject({ type: z.literal("EndEmergency"), actor: CitizenIdSchema }),
  z.strictObject({ type: z.literal("Exit"), actor: CitizenIdSchema }),
  z.strictObject({ type: z.literal("Pass"), actor: CitizenIdSchema }),
]);
export type Action = z.infer<typeof ActionSchema>;
export type ActionType = Action["type"];
export const ACTION_TYPES = ActionSchema.options.map((option) => option.shape.type.value) as readonly ActionType[];

/** An action as read from untrusted input: the parsed, frozen action, or every field at fault (in path order) and the submission as the transcript keeps it. */
export type ReadAction = { ok: true; action: Action } | { ok: false; problems: FieldProblem[]; submission: RefusedSubmission };

/**
 * Reads one submission against the closed vocabulary without throwing: as
 * JSON first (readJson: keys in code-unit order, so the order they were
 * written in cannot change a refusal), then the type (so an unknown type is
 * named as such), then the schema, then the keys a parse would silently drop
 * (a `__proto__` key in `changes` could turn a refused amendment into a
 * legal one). A refusal names every field at fault in path order. The action
 * returned is a fresh, deeply frozen copy: the caller's object can change
 * afterwards without touching anything that kept it.
 */
export function readAction(value: unknown): ReadAction {
  const json = readJson(value);
  if (!json.ok) return { ok: false, problems: json.problems, submission: deepFreeze({ notJson: json.problems.map(({ field, got }) => ({ field, got })) }) };
  const read = readJsonAction(json.value);
  return read.ok ? { ok: true, action: deepFreeze(read.action) } : { ok: false, problems: read.problems, submission: deepFreeze({ malformed: json.value }) };
}

/** A JSON value read as an action: the parse, or every field at fault in path order. */
function readJsonAction(value: JsonValue): { ok: true; action: Action } | { ok: false; problems: FieldProblem[] } {
  const problem = (path: readonly PropertyKey[], expected: string): FieldProblem => {
    const received = ownValueAt(value, path);
    return { field: fieldName(path), got: received === undefined ? "nothing" : JSON.stringify(received), expected, received };
  };
  const type = ownValueAt(value, ["type"]);
  if (typeof type !== "string" || !(ACTION_TYPES as readonly string[]).includes(type)) return { ok: false, problems: [problem(["type"], `one of ${ACTION_TYPES.join(", ")}`)] };
  const result = ActionSchema.safeParse(value);
  if (!result.success) {
    const found = result.error.issues.flatMap((issue) =>
      issue.code === "unrecognized_keys" ? issue.keys.map((key) => ({ path: [...issue.path, key], expected: `no such key in a ${type} action` })) : [{ path: issue.path, expected: issue.message }],
    );
    // A stable sort: issues at one path keep the schema's own (fixed) order.
    return { ok: false, problems: found.sort((a, b) => comparePaths(a.path, b.path)).map(({ path, expected }) => problem(path, expected)) };
  }
  if (result.data.type !== "ProposeAmendment") return { ok: true, action: result.data };
  // Own keys of `changes` the parse did not keep (`__proto__` is assigned to the prototype, never kept as a key).
  const kept = result.data.changes;
  const dropped = Object.keys(ownValueAt(value, ["changes"]) as Record<string, JsonValue>).filter((key) => !Object.prototype.hasOwnProperty.call(kept, key));
  if (dropped.length === 0) return { ok: true, action: result.data };
  return { ok: false, problems: dropped.map((key) => problem(["changes", key], "a parameter name (this key cannot be kept)")) };
}

/** The value at `path` through own properties only (a `valueOf` or `__proto__` key is read as itself, never from the prototype). */
function ownValueAt(value: JsonValue, path: readonly PropertyKey[]): JsonValue | undefined {
  let at: JsonValue | undefined = value;
  for (const key of path) at = typeof at === "object" && at !== null && Object.prototype.hasOwnProperty.call(at, key) ? (at as Record<PropertyKey, JsonValue>)[key] : undefined;
  return at;
}

function deepFreeze<Value>(value: Value): Value {
  if (typeof value === "object" && value !== null) {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}

/** Parses one action from untrusted input (a transcript line, an agent's JSON); `field` names where it came from, the error the first field at fault. */
export function parseAction(value: unknown, field: string): Action {
  const read = readAction(value);
  if (!read.ok) {
    const [first] = read.problems as [FieldProblem];
    throw new UnknownActionError(`${field}.${first.field}`, first.expected, first.received);
  }
  return read.action;
}

/** The neutral action a shrinker puts in place of a removed one. */
export function passFor(actor: string): Action {
  return { type: "Pass", actor };
}
