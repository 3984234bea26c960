import { agentStream } from "../agents/agent-stream.js";
import type { TournamentAgent } from "../agents/tournament-agent.js";
import { detectCaptures, type CaptureFinding } from "../detectors/detect-captures.js";
import type { Kernel } from "../kernel/kernel.js";
import { episodeMetrics, type EpisodeMetrics } from "../metrics/episode-metrics.js";
import { playRounds } from "../play/play-rounds.js";
import { eventLogHash } from "../replay/canonical-json.js";
import type { Transcript } from "../replay/transcript.js";
import type { Action } from "../world/actions.js";
import type { TournamentEvent } from "../world/events.js";
import { TournamentEnvironment, WorldConfigSchema, type WorldConfig, type WorldConfigInput } from "../world/tournament-environment.js";
import type { WorldState } from "../world/world-state.js";
import { episodeWorldSeed } from "./episode-world-seed.js";
import { honestOnlyAgentFactory, type TournamentAgentFactory } from "./tournament-agent-factory.js";
import { buildTournamentReport, type TournamentReport } from "./tournament-report.js";
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
  /** Makes each seat's agent. Default: HonestAgent for honest seats, and refusal of red seats. */
  agents?: TournamentAgentFactory;
  /** Tries per turn before a refused citizen passes (playRounds). Default 3. */
  maxAttemptsPerTurn?: number;
}

/** One played episode, in full. */
export interface TournamentEpisode {
  index: number;
  /** The world it was played in, its derived turn-order seed included. */
  world: WorldConfig;
  roster: EpisodeRoster;
  /** Each citizen's agent kind (`honest`, `red:<objective>` …), in index order. */
  agents: Record<string, string>;
  events: readonly TournamentEvent[];
  /** Every submission, refused ones included: replayed through the gate it gives `events` again. */
  transcript: Transcript;
  state: Readonly<WorldState>;
  metrics: EpisodeMetrics;
  /** Every detector's finding over the episode's events (the red team's objective or not). */
  findings: CaptureFinding[];
  eventLogHash: string;
}

export interface TournamentResult {
  report: TournamentReport;
  episodes: TournamentEpisode[];
}

/**
 * Plays `episodes` episodes of `rounds` rounds under one kernel. Episode i's
 * world seed comes from (seed, i) and citizen c's agent stream from
 * (seed, i, c), so a tournament is fully specified by (kernel text, options)
 * and the same options give the same report, byte for byte.
 */
export async function runTournament(options: RunTournamentOptions): Promise<TournamentResult> {
  const roster = options.roster ?? defaultRoster();
  const makeAgent = options.agents ?? honestOnlyAgentFactory;
  const episodes: TournamentEpisode[] = [];
  for (let index = 0; index < options.episodes; index++) {
    const world = parseInput(WorldConfigSchema, { ...options.world, seed: episodeWorldSeed(options.seed, index) }, { fieldName: (path) => `world.${path.map(String).join(".")}` });
    const seats = roster(index, world);
    const environment = new TournamentEnvironment(options.kernel, world);
    const agents: Record<string, TournamentAgent> = {};
    for (const citizen of environment.citizens()) {
      agents[citizen] = makeAgent({ citizen, episodeIndex: index, roster: seats, stream: agentStream(options.seed, index, citizen), kernel: options.kernel, world });
    }
    await playRounds(environment, agents, { untilRound: options.rounds, ...(options.maxAttemptsPerTurn !== undefined && { maxAttemptsPerTurn: options.maxAttemptsPerTurn }) });
    const events = environment.events;
    episodes.push({
      index,
      world,
      roster: seats,
      agents: Object.fromEntries(Object.entries(agents).map(([citizen, agent]) => [citizen, agent.kind])),
      events,
      transcript: { kernelVersion: options.kernel.version, world, actions: [...environment.actions] as Action[] },
      state: environment.state,
      metrics: episodeMetrics(environment.state, events, { redTeam: seats.redTeam }),
      findings: detectCaptures(events, { kernel: options.kernel, world, redTeam: seats.redTeam }),
      eventLogHash: eventLogHash(events),
    });
  }
  return { report: buildTournamentReport(options, episodes), episodes };
}
