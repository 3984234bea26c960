import { z } from "zod";
import { fnv1aText } from "../hashing/fnv1a.js";
import { parseInput, type ParseInputOptions } from "../parse-input.js";

/**
 * Held out when FNV-1a 32 of the item's key is 0 mod `modulus`: about one
 * item in `modulus`, the same ones on every machine and in every order.
 */
export const HashedHeldOutRuleSchema = z.strictObject({
  rule: z.literal("hashed"),
  /** One item in this many is held out (on average): an integer ≥ 1, 1 holding out everything. Default 10. */
  modulus: z.number().int().min(1).default(10),
});

/**
 * Held out when FNV-1a 32 of `salt`, then `seed` and a NUL, then the item's
 * key, as a fraction of 2³², is below `fraction`. Another seed holds out other
 * items; a salt keeps the split independent of other splits over the same keys.
 */
export const FractionHeldOutRuleSchema = z.strictObject({
  rule: z.literal("fraction"),
  /** The share held out, in [0, 1]: 0 holds out nothing, 1 everything. */
  fraction: z.number().min(0).max(1),
  /** A non-negative integer hashed before the key (with a NUL after it). Default: none, nothing hashed for it. */
  seed: z.number().int().min(0).optional(),
  /** Text hashed first. Default: none. */
  salt: z.string().default(""),
});

/** Which items are held out, by a hash of each item's key: `{rule: "hashed", modulus}` or `{rule: "fraction", fraction, seed, salt}`. */
export const HeldOutRuleSchema = z.discriminatedUnion("rule", [HashedHeldOutRuleSchema, FractionHeldOutRuleSchema], {
  error: 'a held-out rule: {"rule": "hashed", "modulus"?} or {"rule": "fraction", "fraction", "seed"?, "salt"?}',
});
export type HeldOutRule = z.output<typeof HeldOutRuleSchema>;
export type HeldOutRuleInput = z.input<typeof HeldOutRuleSchema>;

/**
 * A rule validated, with its defaults; bad input is an InvalidInputError
 * naming the field at fault: `heldOut.fraction` unless `options.fieldName`
 * gives the caller's own name for it (a rule built from one option).
 */
export function parseHeldOutRule(input: unknown, options: ParseInputOptions = { fieldName: (path) => ["heldOut", ...path.map(String)].join(".") }): HeldOutRule {
  return parseInput(HeldOutRuleSchema, input, options);
}

/** Whether the item whose key is `key` is held out under `rule`. */
export function isHeldOut(key: string, rule: HeldOutRule): boolean {
  if (rule.rule === "hashed") return fnv1aText(key) % rule.modulus === 0;
  const seeded = rule.seed === undefined ? key : `${rule.seed}\u0000${key}`;
  return fnv1aText(rule.salt + seeded) / 2 ** 32 < rule.fraction;
}
