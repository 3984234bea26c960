import type { RedTeamPolicy } from "./red-team-agent.js";
import { legalOrPass } from "./red-team-knowledge.js";

/**
 * Red policy for `treasury-drain`: proposes the largest spend the rules allow
 * to the poorest teammate (never to itself, which honest citizens refuse),
 * votes yes on spends paying the team and no on every other spend, and
 * yes on amendments its teammates propose.
 */
export const treasuryDrainPolicy: RedTeamPolicy = (view, team, random) => {
  const { self, state, params } = view;
  const unvoted = team.unvoted(state, self);
  if (unvoted !== undefined) {
    const support = unvoted.kind === "spend" ? team.isMember(unvoted.recipient) : team.isMember(unvoted.proposer);
    return { type: "Vote", actor: self, proposalId: unvoted.id, support };
  }
  const amount = Math.floor((state.treasury * params.maxSpendPercentOfTreasury) / 100);
  if (amount < 1) return { type: "Pass", actor: self };
  return legalOrPass(view, { type: "ProposeSpend", actor: self, amount, recipient: team.poorestTeammate(state, self, random), memo: "public works" });
};
