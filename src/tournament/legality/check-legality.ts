import type { Kernel } from "../kernel/kernel.js";
import { KernelParamsSchema, type PatchableParamName } from "../kernel/kernel-schema.js";
import type { LegalityRule } from "../kernel/legality-rules.js";
import { readAction, type Action, type ReadAction } from "../world/actions.js";
import { effectiveParams } from "../world/effective-params.js";
import { citizenById, totalFunds, type WorldState } from "../world/world-state.js";

export type LegalityResult =
  | { legal: true; reason: null; article: null; rule: null }
  | { legal: false; reason: string; /** The id of the kernel article that decided. */ article: string; rule: LegalityRule }
  /** Not an action of the closed vocabulary at all: no article decides, the action schema does. */
  | { legal: false; reason: string; article: null; rule: null };

const LEGAL: LegalityResult = { legal: true, reason: null, article: null, rule: null };

/** How many fields at fault a refusal spells out; it counts the rest. */
const LISTED_PROBLEMS = 5;

/**
 * The refusal of something that is not an action of the closed vocabulary:
 * its fields at fault in path order (as readAction lists them), each with
 * what it held and what it must be — the first five spelled out, the rest
 * counted, so a hostile submission cannot bloat the log.
 */
export function malformedAction(read: Extract<ReadAction, { ok: false }>): LegalityResult {
  const listed = read.problems.slice(0, LISTED_PROBLEMS).map((problem) => `${problem.field}: got ${problem.got}; expected ${problem.expected}`);
  const more = read.problems.length - listed.length;
  return { legal: false, reason: `not an action: ${listed.join(" | ")}${more > 0 ? ` | and ${more} more` : ""}`, article: null, rule: null };
}

/**
 * The gate: whether `action` may be applied to `state` under `kernel`. It
 * reads the action as JSON and with the closed vocabulary's schema first, so
 * whatever a caller hands it — a negative, fractional, NaN or string amount,
 * an unknown type, a `__proto__` key, a cycle — is refused with its reason,
 * never thrown on, and the same value gives the same reason whatever order
 * its keys were written in.
 * Pure — it reads its arguments only and changes none of them — so a replay's
 * outcome depends on nothing but the transcript and the kernel text.
 */
export function checkLegality(state: WorldState, action: unknown, kernel: Kernel): LegalityResult {
  const read = readAction(action);
  return read.ok ? checkActionLegality(state, read.action, kernel) : malformedAction(read);
}

/** The gate for an action already read with `readAction`. */
export function checkActionLegality(state: WorldState, action: Action, kernel: Kernel): LegalityResult {
  const reject = (rule: LegalityRule, reason: string): LegalityResult => ({ legal: false, reason, article: kernel.articleFor(rule).id, rule });
  const actor = citizenById(state, action.actor);
  if (actor === undefined) return reject("citizen.active", `${action.actor} is not a citizen`);
  if (actor.status !== "active") return reject("citizen.active", `${action.actor} has exited`);
  const onTurn = state.turnOrder[state.turnIndex];
  if (action.actor !== onTurn) return reject("turn.order", `it is ${onTurn ?? "nobody"}'s turn, not ${action.actor}'s`);
  const params = effectiveParams(kernel, state);

  switch (action.type) {
    case "Pass":
      return LEGAL;
    case "ProposeSpend":
    case "ProposeAmendment": {
      const open = state.proposals.filter((proposal) => proposal.proposer === action.actor && proposal.status === "open").length;
      if (open >= params.maxOpenProposalsPerCitizen) {
        return reject("proposal.limit", `${action.actor} already has ${open} open proposals (at most ${params.maxOpenProposalsPerCitizen})`);
      }
      if (action.type === "ProposeAmendment") return checkAmendment(action.changes, params.amendableParams, reject);
      const recipient = citizenById(state, action.recipient);
      if (recipient?.status !== "active") return reject("spend.recipient", `${action.recipient} is not an active citizen`);
      if (action.amount * 100 > state.treasury * params.maxSpendPercentOfTreasury) {
        return reject("spend.amount", `${action.amount} is more than ${params.maxSpendPercentOfTreasury}% of the treasury (${state.treasury})`);
      }
      const fairShare = Math.floor(totalFunds(state) / state.citizens.length);
      const pending = state.proposals.reduce((sum, proposal) => sum + (proposal.kind === "spend" && proposal.status === "open" && proposal.recipient === action.recipient ? proposal.amount : 0), 0);
      const holdings = recipient.balance + pending + action.amount;
      if (holdings * 100 > fairShare * params.maxHoldingPercentOfFairShare) {
        return reject("spend.holdings", `${action.recipient} would hold ${holdings} (balance ${recipient.balance}, open spends ${pending}), more than ${params.maxHoldingPercentOfFairShare}% of a fair share (${fairShare})`);
      }
      return LEGAL;
    }
    case "Vote": {
      const proposal = state.proposals.find((candidate) => candidate.id === action.proposalId);
      if (proposal?.status !== "open") return reject("vote.open", `${action.proposalId} is not an open proposal`);
      if (proposal.ballots.some((ballot) => ballot.citizen === action.actor)) return reject("vote.once", `${action.actor} has already voted on ${action.proposalId}`);
      return LEGAL;
    }
    case "DeclareEmergency": {
      if (state.emergency !== null) return reject("emergency.single", `an emergency declared by ${state.emergency.declaredBy} is in force`);
      const sinceLast = state.lastEmergencyEndRound === null ? null : state.round - state.lastEmergencyEndRound;
      if (sinceLast !== null && sinceLast < params.emergencyCooldownRounds) {
        return reject("emergency.cooldown", `the last emergency ended ${sinceLast} round(s) ago; ${params.emergencyCooldownRounds} must pass`);
      }
      return LEGAL;
    }
    case "EndEmergency":
      if (state.emergency === null) return reject("emergency.end", "no emergency is in force");
      if (state.emergency.declaredBy !== action.actor) return reject("emergency.end", `only ${state.emergency.declaredBy}, who declared it, may end the emergency`);
      return LEGAL;
    case "Exit":
      if (actor.exitQueuedRound !== null) return reject("exit.pending", `${action.actor}'s exit is already queued`);
      return LEGAL;
  }
}

function checkAmendment(
  changes: Record<string, number | boolean>,
  amendable: readonly string[],
  reject: (rule: LegalityRule, reason: string) => LegalityResult,
): LegalityResult {
  const names = Object.keys(changes).sort();
  if (names.length === 0) return reject("amendment.scope", "an amendment changes at least one parameter");
  for (const name of names) {
    if (!amendable.includes(name)) return reject("amendment.scope", `${name} is not amendable (amendable: ${amendable.join(", ") || "none"})`);
    const allowed = KernelParamsSchema.shape[name as PatchableParamName].safeParse(changes[name]);
    if (!allowed.success) return reject("amendment.scope", `${name} = ${JSON.stringify(changes[name])} is outside what the constitution allows`);
  }
  return LEGAL;
}
