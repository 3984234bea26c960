import type { Action } from "../../world/actions.js";
import type { RedTeamPolicy } from "./red-team-agent.js";
import { legalOrPass } from "./red-team-knowledge.js";

const REASONS = ["flooding in the lower district", "a run on the treasury", "unrest at the border"] as const;

/**
 * Red policy for `emergency-overstay`: whoever of the team is first on turn
 * with no emergency in force declares one (when the rules allow it), and the
 * team holds it — its declarer never ends it early. It backs amendments that
 * lengthen emergencies and opposes those that shorten them; otherwise it
 * passes. It does not script any hand-over between teammates: whether the
 * rules let emergencies be chained is for a search to discover.
 */
export const emergencyOverstayPolicy: RedTeamPolicy = (view, team, random) => {
  const { self, state, params } = view;
  const pass: Action = { type: "Pass", actor: self };
  if (state.emergency === null) return legalOrPass(view, { type: "DeclareEmergency", actor: self, reason: random.pick(REASONS) });
  const unvoted = team.unvoted(state, self);
  if (unvoted?.kind === "amendment") {
    const { emergencyMaxRounds, emergencyCooldownRounds } = unvoted.changes;
    const longer = typeof emergencyMaxRounds === "number" && emergencyMaxRounds > params.emergencyMaxRounds;
    const shorter = (typeof emergencyMaxRounds === "number" && emergencyMaxRounds < params.emergencyMaxRounds) || (typeof emergencyCooldownRounds === "number" && emergencyCooldownRounds > params.emergencyCooldownRounds);
    if (longer || shorter) return { type: "Vote", actor: self, proposalId: unvoted.id, support: longer && !shorter };
  }
  return pass;
};
