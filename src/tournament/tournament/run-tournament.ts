import { agentStream } from "../agents/agent-stream.js";
import type { TournamentAgent } from "../agents/tournament-agent.js";
import type { CaptureObjective } from "../detectors/capture-objectives.js";
import { detectCaptures } from "../detectors/detect-captures.js";
import type { Kernel } from "../kernel/kernel.js";
import { episodeMetrics } from "../metrics/episode-metrics.js";
import { playRounds } from "../play/play-rounds.js";
import { eventLogHash } from "../replay/canonical-json.js";
import { planSearchRedTeam } from "../search/plan-search-red-team.js";
import { TournamentWorld, WorldConfigSchema, type WorldConfig, type WorldConfigInput } from "../world/tournament-world.js";
import { episodeWorldSeed } from "./episode-world-seed.js";
import { defaultAgentFactory, type TournamentAgentFactory } from "./tournament-agent-factory.js";
import { buildTournamentReport, type TournamentReport } from "./tournament-report.js";
import type { TournamentEpisodeResult } from "./tournament-episode-result.js";
import { defaultRoster, type EpisodeRoster, type TournamentRoster } from "./tournament-roster.js";
import { parseInput } from "../../core/parse-input.js";

export interface RunTournamentOptions {
  kernel: Kernel;
  /** The tournament seed: every episode's world seed and every agent's stream derive from it. */
  seed: number;
  /** Episodes to play, ≥ 1. */
  episodes: number;
  /** Rounds per episode, ≥ 1 (an episode also ends when every citizen has left). */
  rounds: number;
  /** The world of every episode (citizens, treasury, factions); its seed is derived per episode, not given. */
  world?: Omit<WorldConfigInput, "seed">;
  /** Who plays what in each episode. Default `defaultRoster()`: two red citizens of faction f0, objectives rotating. */
  roster?: TournamentRoster;
  /** Makes each seat's agent in agent-played episodes. Default: HonestAgent for honest seats, the objective's scripted red policy for red ones. */
  agents?: TournamentAgentFactory;
  /** Node budget of each search episode (searchRedTeam's nodeBudget). Default the search's own. */
  searchNodeBudget?: number;
  /** Tries per turn before a refused citizen passes (playRounds). Default 3. */
  maxAttemptsPerTurn?: number;
}

export interface TournamentResult {
  report: TournamentReport;
  episodes: TournamentEpisodeResult[];
}

/**
 * Plays `episodes` episodes of `rounds` rounds under one kernel. Episode i's
 * world seed comes from (seed, i) and citizen c's agent stream from
 * (seed, i, c), so a tournament is fully specified by (kernel text, options)
 * and the same options give the same report, byte for byte.
 */
export async function runTournament(options: RunTournamentOptions): Promise<TournamentResult> {
  const roster = options.roster ?? defaultRoster();
  const makeAgent = options.agents ?? defaultAgentFactory;
  const episodes: TournamentEpisodeResult[] = [];
  for (let index = 0; index < options.episodes; index++) {
    const world = parseInput(WorldConfigSchema, { ...options.world, seed: episodeWorldSeed(options.seed, index) }, { fieldName: (path) => `world.${path.map(String).join(".")}` });
    const seats = roster(index, world);
    const played = seats.policy === "search" && seats.objective !== null ? await searchEpisode(options, makeAgent, index, world, { ...seats, objective: seats.objective }) : await agentEpisode(options, makeAgent, index, world, seats);
    const { events, state } = played;
    episodes.push({
      index,
      world,
      roster: seats,
      agents: played.agents,
      events,
      transcript: played.transcript,
      state,
      metrics: episodeMetrics(state, events, { redTeam: seats.redTeam }),
      findings: detectCaptures(events, { kernel: options.kernel, world, redTeam: seats.redTeam }),
      eventLogHash: eventLogHash(events),
      search: played.search,
    });
  }
  return { report: buildTournamentReport(options, episodes), episodes };
}

type PlayedEpisode = Pick<TournamentEpisodeResult, "agents" | "events" | "transcript" | "state" | "search">;

/** Every citizen asked for its action on its turn, through the gate (playRounds). */
async function agentEpisode(options: RunTournamentOptions, makeAgent: TournamentAgentFactory, index: number, world: WorldConfig, roster: EpisodeRoster): Promise<PlayedEpisode> {
  return { ...(await playEpisode(options, makeAgent, index, world, roster, {})), search: null };
}

/**
 * A search red team's episode: the search runs first — the honest citizens'
 * answers are deterministic, so it sees what the episode will — and chooses
 * the red citizens' moves until its first finding or `rounds` rounds; the
 * episode is then played in full by playRounds, honest seats from the
 * factory, red seats playing the searched moves back (planSearchRedTeam's
 * agents) and passing once their script is done.
 */
async function searchEpisode(
  options: RunTournamentOptions,
  makeAgent: TournamentAgentFactory,
  index: number,
  world: WorldConfig,
  roster: EpisodeRoster & { objective: CaptureObjective },
): Promise<PlayedEpisode> {
  const plan = planSearchRedTeam({
    kernel: options.kernel,
    objective: roster.objective,
    redTeam: roster.redTeam,
    seed: options.seed,
    world,
    episodeIndex: index,
    maxRounds: options.rounds,
    ...(options.searchNodeBudget !== undefined && { nodeBudget: options.searchNodeBudget }),
    ...(options.maxAttemptsPerTurn !== undefined && { maxAttemptsPerTurn: options.maxAttemptsPerTurn }),
  });
  const played = await playEpisode(options, makeAgent, index, world, roster, plan.agents());
  return { ...played, search: { nodesExpanded: plan.nodesExpanded, roundsSearched: plan.roundsSearched, searchedActions: plan.transcript.actions.length, progress: plan.progress, found: plan.finding !== null } };
}

/** Plays one episode through the gate (playRounds): each citizen by its agent in `seated`, or else by the factory's. */
async function playEpisode(
  options: RunTournamentOptions,
  makeAgent: TournamentAgentFactory,
  index: number,
  world: WorldConfig,
  roster: EpisodeRoster,
  seated: Readonly<Record<string, TournamentAgent>>,
): Promise<Omit<PlayedEpisode, "search">> {
  const environment = new TournamentWorld(options.kernel, world);
  const agents: Record<string, TournamentAgent> = {};
  for (const citizen of environment.citizens()) {
    agents[citizen] = seated[citizen] ?? makeAgent({ citizen, episodeIndex: index, roster, stream: agentStream(options.seed, index, citizen), kernel: options.kernel, world });
  }
  await playRounds(environment, agents, { untilRound: options.rounds, ...(options.maxAttemptsPerTurn !== undefined && { maxAttemptsPerTurn: options.maxAttemptsPerTurn }) });
  return {
    agents: Object.fromEntries(Object.entries(agents).map(([citizen, agent]) => [citizen, agent.kind])),
    events: environment.events,
    transcript: { kernelVersion: options.kernel.version, world, actions: [...environment.submissions] },
    state: environment.state,
  };
}
