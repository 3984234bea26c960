import type { RedTeamPolicy } from "./red-team-agent.js";
import { legalOrPass } from "./red-team-knowledge.js";

const REASONS = ["an audit of the treasury", "a contested count", "a threat to the commons"] as const;

/**
 * Red policy for `exit-blocking`: while citizens outside the team remain, the
 * first teammate on turn with no emergency in force declares one (when the
 * rules allow it), so leavers' exits wait in the queue, and the team holds it
 * to its lapse. It votes no on every proposal from outside the team, to give
 * the others reason to want out. No teammate ever ends an emergency: chaining
 * them, if the rules allow it, is for a search to find.
 */
export const exitBlockingPolicy: RedTeamPolicy = (view, team, random) => {
  const { self, state } = view;
  const outsidersRemain = state.citizens.some((citizen) => citizen.status === "active" && !team.isMember(citizen.id));
  if (state.emergency === null && outsidersRemain) return legalOrPass(view, { type: "DeclareEmergency", actor: self, reason: random.pick(REASONS) });
  const unvoted = team.unvoted(state, self);
  if (unvoted !== undefined) return { type: "Vote", actor: self, proposalId: unvoted.id, support: team.isMember(unvoted.proposer) };
  return { type: "Pass", actor: self };
};
