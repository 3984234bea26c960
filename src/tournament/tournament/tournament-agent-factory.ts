import type { RandomStream } from "../../core/random/random-stream.js";
import { HonestAgent } from "../agents/honest-agent.js";
import type { TournamentAgent } from "../agents/tournament-agent.js";
import type { Kernel } from "../kernel/kernel.js";
import type { WorldConfig } from "../world/tournament-environment.js";
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

/** Honest citizens play HonestAgent; red seats are refused until a red-team factory is given. */
export const honestOnlyAgentFactory: TournamentAgentFactory = (seat) => {
  if (seat.roster.redTeam.includes(seat.citizen)) {
    throw new Error(`no red-team policy "${seat.roster.policy ?? "none"}" is wired for ${seat.citizen}: pass runTournament an agent factory that makes red agents`);
  }
  return new HonestAgent(seat.stream);
};
