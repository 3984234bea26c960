import type { RandomStream } from "../../../core/random/random-stream.js";
import type { CaptureObjective } from "../../detectors/capture-objectives.js";
import type { TournamentAgent } from "../tournament-agent.js";
import { EmergencyOverstayAgent } from "./emergency-overstay-agent.js";
import { ExitBlockingAgent } from "./exit-blocking-agent.js";
import { FactionSuppressionAgent } from "./faction-suppression-agent.js";
import { TreasuryDrainAgent } from "./treasury-drain-agent.js";

/**
 * The scripted ("optimistic") red policy for an objective, kind
 * `red:<objective>`. Every member of a team gets the same `team` and its own
 * stream (agentStream(tournament seed, episode, citizen)).
 */
export function createRedTeamAgent(objective: CaptureObjective, team: readonly string[], random: RandomStream): TournamentAgent {
  switch (objective) {
    case "treasury-drain":
      return new TreasuryDrainAgent(team, random);
    case "faction-suppression":
      return new FactionSuppressionAgent(team, random);
    case "emergency-overstay":
      return new EmergencyOverstayAgent(team, random);
    case "exit-blocking":
      return new ExitBlockingAgent(team, random);
  }
}
