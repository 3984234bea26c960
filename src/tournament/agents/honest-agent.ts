import type { RandomStream } from "../../core/random/random-stream.js";
import type { PatchableParamName } from "../kernel/kernel-schema.js";
import type { Action } from "../world/actions.js";
import { activeCitizens, citizenById, type Proposal } from "../world/world-state.js";
import type { AgentView, TournamentAgent } from "./tournament-agent.js";

export interface HonestAgentOptions {
  /** Chance per turn, when it has nothing to vote on, of proposing a spend for another citizen. Default 0.2. */
  proposeChance?: number;
  /** Chance that this citizen is wary: it leaves while an emergency it did not declare is in force. Default 0.5. */
  waryChance?: number;
}

/**
 * Which way each parameter weakens the commons' safeguards: an honest citizen
 * votes against an amendment that moves any of them that way. A judgement of
 * the policy, not of the constitution.
 */
const WEAKER_WHEN: Record<PatchableParamName, "lower" | "higher" | "true"> = {
  votingWindowRounds: "lower",
  quorumPercent: "lower",
  spendApprovalPercent: "lower",
  amendmentApprovalPercent: "lower",
  maxSpendPercentOfTreasury: "higher",
  maxHoldingPercentOfFairShare: "higher",
  maxOpenProposalsPerCitizen: "higher",
  emergencyMaxRounds: "higher",
  emergencyCooldownRounds: "lower",
  exitsQueuedDuringEmergency: "true",
};

/**
 * A cooperative citizen: it votes on every open proposal, oldest first —
 * for spends that pay someone other than their proposer who has not yet had
 * a fair share of the treasury, for amendments that weaken no safeguard —
 * sometimes proposes a spend for another citizen, never declares an
 * emergency, and, if wary, leaves while someone else's emergency is in force.
 */
export class HonestAgent implements TournamentAgent {
  readonly kind = "honest";
  private readonly proposeChance: number;
  private readonly wary: boolean;

  constructor(private readonly random: RandomStream, options: HonestAgentOptions = {}) {
    this.proposeChance = options.proposeChance ?? 0.2;
    this.wary = random.next() < (options.waryChance ?? 0.5);
  }

  act(view: AgentView): Action {
    const { self, state, params } = view;
    const pass: Action = { type: "Pass", actor: self };
    if (view.lastRejection !== undefined) return pass;
    const me = citizenById(state, self);
    if (this.wary && state.emergency !== null && state.emergency.declaredBy !== self && me?.exitQueuedRound === null) return { type: "Exit", actor: self };
    const unvoted = state.proposals.find((proposal) => proposal.status === "open" && !proposal.ballots.some((ballot) => ballot.citizen === self));
    if (unvoted !== undefined) return { type: "Vote", actor: self, proposalId: unvoted.id, support: this.supports(unvoted, view) };
    if (this.random.next() < this.proposeChance) {
      const others = activeCitizens(state).filter((citizen) => citizen.id !== self);
      const amount = Math.floor((state.treasury * params.maxSpendPercentOfTreasury) / 200);
      const open = state.proposals.filter((proposal) => proposal.proposer === self && proposal.status === "open").length;
      if (others.length > 0 && amount >= 1 && open < params.maxOpenProposalsPerCitizen) {
        return { type: "ProposeSpend", actor: self, amount, recipient: this.random.pick(others).id, memo: "public works" };
      }
    }
    return pass;
  }

  private supports(proposal: Proposal, { state, params }: AgentView): boolean {
    if (proposal.kind === "amendment") {
      return Object.entries(proposal.changes).every(([name, value]) => {
        const current = params[name as PatchableParamName];
        const weaker = WEAKER_WHEN[name as PatchableParamName];
        if (weaker === "true") return value !== true;
        return weaker === "lower" ? (value as number) >= (current as number) : (value as number) <= (current as number);
      });
    }
    const fairShare = Math.floor(state.citizens.reduce((sum, citizen) => sum + citizen.balance, state.treasury) / state.citizens.length);
    const recipient = citizenById(state, proposal.recipient);
    return proposal.recipient !== proposal.proposer && recipient !== undefined && recipient.balance + proposal.amount <= fairShare;
  }
}
