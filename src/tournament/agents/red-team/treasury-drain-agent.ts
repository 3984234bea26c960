import type { RandomStream } from "../../../core/random/random-stream.js";
import type { Action } from "../../world/actions.js";
import type { AgentView, TournamentAgent } from "../tournament-agent.js";
import { legalOrPass, RedTeamKnowledge } from "./red-team-knowledge.js";

/**
 * Red policy for `treasury-drain`: proposes the largest spend the rules allow
 * to the poorest teammate (never to itself, which honest citizens refuse),
 * votes yes on spends paying the team and no on every other spend, and
 * yes on amendments its teammates propose.
 */
export class TreasuryDrainAgent implements TournamentAgent {
  readonly kind = "red:treasury-drain";
  private readonly team: RedTeamKnowledge;

  constructor(team: readonly string[], private readonly random: RandomStream) {
    this.team = new RedTeamKnowledge(team);
  }

  act(view: AgentView): Action {
    const { self, state, params } = view;
    if (view.lastRejection !== undefined) return { type: "Pass", actor: self };
    const unvoted = this.team.unvoted(state, self);
    if (unvoted !== undefined) {
      const support = unvoted.kind === "spend" ? this.team.isMember(unvoted.recipient) : this.team.isMember(unvoted.proposer);
      return { type: "Vote", actor: self, proposalId: unvoted.id, support };
    }
    const amount = Math.floor((state.treasury * params.maxSpendPercentOfTreasury) / 100);
    if (amount < 1) return { type: "Pass", actor: self };
    return legalOrPass(view, { type: "ProposeSpend", actor: self, amount, recipient: this.team.poorestTeammate(state, self, this.random), memo: "public works" });
  }
}
