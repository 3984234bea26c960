import { z } from "zod";
import { InvalidInputError } from "../../core/errors.js";
import { parseInput } from "../../core/parse-input.js";
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

/** Parses one action from untrusted input (a transcript line, an agent's JSON); `field` names where it came from. */
export function parseAction(value: unknown, field: string): Action {
  const type = (value as { type?: unknown } | null)?.type;
  if (typeof type !== "string" || !(ACTION_TYPES as readonly string[]).includes(type)) {
    throw new UnknownActionError(`${field}.type`, `one of ${ACTION_TYPES.join(", ")}`, type);
  }
  try {
    return parseInput(ActionSchema, value, { fieldName: (path) => `${field}.${path.map(String).join(".")}` });
  } catch (error) {
    if (error instanceof InvalidInputError) throw new UnknownActionError(error.field, error.allowed, error.received);
    throw error;
  }
}

/** The neutral action a shrinker puts in place of a removed one. */
export function passFor(actor: string): Action {
  return { type: "Pass", actor };
}
