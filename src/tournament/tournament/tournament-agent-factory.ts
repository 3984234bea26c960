import type { RandomStream } from "../../core/random/random-stream.js";
import { HonestAgent } from "../agents/honest-agent.js";
import { createRedTeamAgent } from "../agents/red-team/create-red-team-agent.js";
import type { TournamentAgent } from "../agents/tournament-agent.js";
import type { Kernel } from "../kernel/kernel.js";
import type { WorldConfig } from "../world/tournament-world.js";
import type { EpisodeRoster } from "./tournament-roster.js";

/** One citizen's place in one episode: what a factory needs to make its agent. */
export interface AgentSeat {
  citizen: string;
  episodeIndex: number;
  roster: EpisodeRoster;
  /** agentStream(tournament seed, episode index, citizen): the agent's only source of randomness. */
  stream: RandomStream;
  kernel: Kernel;
  world: WorldConfig;
}

/** Makes the agent for a seat; honest or red is the roster's to say. */
export type TournamentAgentFactory = (seat: AgentSeat) => TournamentAgent;

/**
 * Honest seats play HonestAgent; red seats of a `scripted` roster play the
 * objective's scripted red-team policy (createRedTeamAgent), each member
 * knowing the whole team. A `search` roster's red seats are played by the
 * search's own agents (runTournament asks the factory for its honest seats
 * only), so a red seat of one is refused here.
 */
export const defaultAgentFactory: TournamentAgentFactory = (seat) => {
  const { roster } = seat;
  if (!roster.redTeam.includes(seat.citizen)) return new HonestAgent(seat.stream);
  if (roster.objective === null || roster.policy !== "scripted") {
    throw new Error(`${seat.citizen} is on a red team with policy ${roster.policy ?? "none"} and objective ${roster.objective ?? "none"}: a seat-by-seat red agent needs policy "scripted" and an objective`);
  }
  return createRedTeamAgent(roster.objective, roster.redTeam, seat.stream);
};
