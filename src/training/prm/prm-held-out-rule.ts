import { parseHeldOutRule, type HeldOutRule } from "../../core/held-out/held-out-rule.js";

/** Salt of the split's hash, so it is independent of any task's own held-out split (the arithmetic task's would be empty here). */
const PRM_HELD_OUT_SALT = "selfplay-prm-held-out\u241f";

/**
 * The PRM's held-out rule: `fraction` of the tasks, by core's salted
 * `fraction` rule over each example's task. By task, not by state, so the
 * prefixes of one task never sit on both sides and inflate the held-out score.
 */
export function prmHeldOutRule(fraction: number): HeldOutRule {
  return parseHeldOutRule({ rule: "fraction", fraction, salt: PRM_HELD_OUT_SALT }, { fieldName: () => "heldOutFraction" });
}
