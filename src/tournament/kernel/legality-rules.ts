/**
 * The rules the legality gate and the round resolution apply. Which article of
 * a constitution governs each rule — and every number a rule uses — is the
 * kernel's to say; the code only knows the rules exist.
 */
export const LEGALITY_RULES = [
  "turn.order",
  "citizen.active",
  "spend.amount",
  "spend.recipient",
  "spend.holdings",
  "proposal.limit",
  "amendment.scope",
  "vote.open",
  "vote.once",
  "emergency.single",
  "emergency.cooldown",
  "emergency.end",
  "emergency.lapse",
  "exit.pending",
  "exit.emergency",
  "exit.share",
  "tally.quorum",
  "tally.approval",
  "tally.funds",
] as const;

export type LegalityRule = (typeof LEGALITY_RULES)[number];
