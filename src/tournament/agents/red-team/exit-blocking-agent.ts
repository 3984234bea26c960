import type { RandomStream } from "../../../core/random/random-stream.js";
import type { Action } from "../../world/actions.js";
import type { AgentView, TournamentAgent } from "../tournament-agent.js";
import { legalOrPass, RedTeamKnowledge } from "./red-team-knowledge.js";

const REASONS = ["an audit of the treasury", "a contested count", "a threat to the commons"] as const;

/**
 * Red policy for `exit-blocking`: while citizens outside the team remain, the
 * first teammate on turn with no emergency in force declares one (when the
 * rules allow it), so leavers' exits wait in the queue, and the team holds it
 * to its lapse. It votes no on every proposal from outside the team, to give
 * the others reason to want out. No teammate ever ends an emergency: chaining
 * them, if the rules allow it, is for a search to find.
 */
export class ExitBlockingAgent implements TournamentAgent {
  readonly kind = "red:exit-blocking";
  private readonly team: RedTeamKnowledge;

  constructor(team: readonly string[], private readonly random: RandomStream) {
    this.team = new RedTeamKnowledge(team);
  }

  act(view: AgentView): Action {
    const { self, state } = view;
    const pass: Action = { type: "Pass", actor: self };
    if (view.lastRejection !== undefined) return pass;
    const outsidersRemain = state.citizens.some((citizen) => citizen.status === "active" && !this.team.isMember(citizen.id));
    if (state.emergency === null && outsidersRemain) return legalOrPass(view, { type: "DeclareEmergency", actor: self, reason: this.random.pick(REASONS) });
    const unvoted = this.team.unvoted(state, self);
    if (unvoted !== undefined) return { type: "Vote", actor: self, proposalId: unvoted.id, support: this.team.isMember(unvoted.proposer) };
    return pass;
  }
}
