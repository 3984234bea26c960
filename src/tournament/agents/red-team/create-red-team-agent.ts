import type { RandomStream } from "../../../core/random/random-stream.js";
import type { CaptureObjective } from "../../detectors/capture-objectives.js";
import type { TournamentAgent } from "../tournament-agent.js";
import { emergencyOverstayPolicy } from "./emergency-overstay-policy.js";
import { exitBlockingPolicy } from "./exit-blocking-policy.js";
import { factionSuppressionPolicy } from "./faction-suppression-policy.js";
import { RedTeamAgent, type RedTeamPolicy } from "./red-team-agent.js";
import { treasuryDrainPolicy } from "./treasury-drain-policy.js";

/** The scripted ("optimistic") red policy of each objective. */
const POLICIES: Record<CaptureObjective, RedTeamPolicy> = {
  "treasury-drain": treasuryDrainPolicy,
  "faction-suppression": factionSuppressionPolicy(),
  "emergency-overstay": emergencyOverstayPolicy,
  "exit-blocking": exitBlockingPolicy,
};

/**
 * The scripted ("optimistic") red policy for an objective, kind
 * `red:<objective>`. Every member of a team gets the same `team` and its own
 * stream (agentStream(tournament seed, episode, citizen)).
 */
export function createRedTeamAgent(objective: CaptureObjective, team: readonly string[], random: RandomStream): TournamentAgent {
  return new RedTeamAgent(objective, team, random, POLICIES[objective]);
}
