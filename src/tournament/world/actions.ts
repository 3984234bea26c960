import { z } from "zod";
import { UnknownActionError } from "../errors/index.js";

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

/** An action as read from untrusted input: the parsed, frozen action, or why it is not one. */
export type ReadAction = { ok: true; action: Action } | { ok: false; field: string; allowed: string; received: unknown };

/** Own keys of `value`'s `changes` that a parse would not keep (`__proto__` is assigned to the prototype, never kept as a key). */
function droppedChangeKeys(value: unknown, parsed: Action): string[] {
  if (parsed.type !== "ProposeAmendment") return [];
  const raw = (value as { changes?: unknown }).changes;
  if (typeof raw !== "object" || raw === null) return [];
  return Object.keys(raw).filter((key) => !Object.prototype.hasOwnProperty.call(parsed.changes, key));
}

/**
 * Reads one action against the closed vocabulary without throwing: the type
 * first (so an unknown type is named as such), then the schema, then the
 * keys a parse would silently drop (a `__proto__` key in `changes` could turn
 * a refused amendment into a legal one). The action returned is a fresh,
 * deeply frozen copy: the caller's object can change afterwards without
 * touching anything that kept it.
 */
export function readAction(value: unknown): ReadAction {
  const type = (value as { type?: unknown } | null | undefined)?.type;
  if (typeof type !== "string" || !(ACTION_TYPES as readonly string[]).includes(type)) {
    return { ok: false, field: "type", allowed: `one of ${ACTION_TYPES.join(", ")}`, received: type };
  }
  // safeParse, not parseInput: an error message built from a BigInt or a cycle would itself throw.
  const result = ActionSchema.safeParse(value);
  if (!result.success) {
    const issue = result.error.issues[0];
    const path = (issue?.path ?? []).map(String);
    if (issue?.code === "unrecognized_keys") return { ok: false, field: [...path, issue.keys[0] ?? ""].join("."), allowed: `no such key in a ${type} action`, received: undefined };
    let received: unknown = value;
    for (const key of path) received = (received as Record<string, unknown> | undefined)?.[key];
    return { ok: false, field: path.join(".") || "(action)", allowed: issue?.message ?? "a valid action", received };
  }
  const parsed = result.data;
  const dropped = droppedChangeKeys(value, parsed);
  if (dropped.length > 0) return { ok: false, field: `changes.${dropped[0] ?? ""}`, allowed: "a parameter name (this key cannot be kept)", received: (value as { changes: Record<string, unknown> }).changes[dropped[0] ?? ""] };
  return { ok: true, action: deepFreeze(structuredClone(parsed)) };
}

/** `received` as InvalidInputError can print it: NaN, Infinity, BigInt and cycles as text. */
function jsonSafe(value: unknown): unknown {
  if (typeof value === "number" && !Number.isFinite(value)) return String(value);
  try {
    JSON.stringify(value);
    return value;
  } catch {
    return String(value);
  }
}

/** How a refused action's reason shows what it was given: exactly, whatever it is. */
export function describeReceived(value: unknown): string {
  if (value === undefined) return "nothing";
  const safe = jsonSafe(value);
  return typeof safe === "string" && typeof value !== "string" ? safe : (JSON.stringify(safe) ?? String(value));
}

function deepFreeze<Value>(value: Value): Value {
  if (typeof value === "object" && value !== null) {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}

/** Parses one action from untrusted input (a transcript line, an agent's JSON); `field` names where it came from. */
export function parseAction(value: unknown, field: string): Action {
  const read = readAction(value);
  if (!read.ok) throw new UnknownActionError(`${field}.${read.field}`, read.allowed, jsonSafe(read.received));
  return read.action;
}

/** The neutral action a shrinker puts in place of a removed one. */
export function passFor(actor: string): Action {
  return { type: "Pass", actor };
}
