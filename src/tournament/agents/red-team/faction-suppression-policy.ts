import type { Action } from "../../world/actions.js";
import { citizenById } from "../../world/world-state.js";
import type { RedTeamPolicy } from "./red-team-agent.js";

export interface FactionSuppressionPolicyOptions {
  /** Chance per turn, with nothing to vote on, of proposing a spend to a citizen outside the target faction, to look busy. Default 0.1. */
  proposeChance?: number;
}

/**
 * Red policy for `faction-suppression`: the team targets the factions that
 * have no red member and votes no on every proposal a target-faction citizen
 * makes, yes on everything else (so the rest of the commons sees it as
 * cooperative), and now and then proposes a small spend to a non-target citizen.
 */
export function factionSuppressionPolicy(options: FactionSuppressionPolicyOptions = {}): RedTeamPolicy {
  const proposeChance = options.proposeChance ?? 0.1;
  return (view, team, random) => {
    const { self, state, params } = view;
    const pass: Action = { type: "Pass", actor: self };
    const targets = new Set(team.factionsWithoutMembers(state));
    const unvoted = team.unvoted(state, self);
    if (unvoted !== undefined) {
      const proposerFaction = citizenById(state, unvoted.proposer)?.faction ?? "";
      return { type: "Vote", actor: self, proposalId: unvoted.id, support: !targets.has(proposerFaction) };
    }
    if (random.next() >= proposeChance) return pass;
    const recipients = state.citizens.filter((citizen) => citizen.status === "active" && citizen.id !== self && !targets.has(citizen.faction));
    const amount = Math.floor((state.treasury * params.maxSpendPercentOfTreasury) / 200);
    const open = state.proposals.filter((proposal) => proposal.proposer === self && proposal.status === "open").length;
    if (recipients.length === 0 || amount < 1 || open >= params.maxOpenProposalsPerCitizen) return pass;
    return { type: "ProposeSpend", actor: self, amount, recipient: random.pick(recipients).id, memo: "public works" };
  };
}
