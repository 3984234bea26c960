import type { TournamentAgent } from "../agents/tournament-agent.js";
import { searchRedTeam, type SearchRedTeamOptions, type SearchRedTeamResult } from "./search-red-team.js";
import { SearchRedTeamAgent } from "./search-red-team-agent.js";

/** A search's result with the agents that play it back in a tournament. */
export interface SearchRedTeamPlan extends SearchRedTeamResult {
  /**
   * Fresh agents for the red citizens, by citizen id, each playing its part of
   * `transcript` (call once per episode: an agent keeps its place in its script).
   * Played with playRounds beside HonestAgents on agentStream(seed, episodeIndex,
   * citizen) with the search's honest options, in the search's world, the
   * episode's actions begin with `transcript.actions` exactly.
   */
  agents(): Record<string, TournamentAgent>;
}

/**
 * How a tournament fields a search red team: search first (the honest
 * citizens' answers are deterministic, so the search sees what the episode
 * will), then play the plan. Same options ⇒ same plan.
 */
export function planSearchRedTeam(options: SearchRedTeamOptions): SearchRedTeamPlan {
  const result = searchRedTeam(options);
  return {
    ...result,
    agents: () => Object.fromEntries(result.redTeam.map((citizen) => [citizen, new SearchRedTeamAgent(result.objective, result.redActions[citizen] ?? [])])),
  };
}
