import type { CaptureFinding } from "../detectors/detect-captures.js";
import type { EpisodeMetrics } from "../metrics/episode-metrics.js";
import type { Transcript } from "../replay/transcript.js";
import type { TournamentEvent } from "../world/events.js";
import type { WorldConfig } from "../world/tournament-world.js";
import type { WorldState } from "../world/world-state.js";
import type { EpisodeRoster } from "./tournament-roster.js";

/** One played episode, in full. */
export interface TournamentEpisodeResult {
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
  /**
   * For a search episode, what the search spent — nodes (red candidate
   * actions tried: a count, not a time) and rounds — and the length of the
   * transcript it chose, which the episode's actions begin with; null otherwise.
   */
  search: { nodesExpanded: number; roundsSearched: number; searchedActions: number; progress: number; found: boolean } | null;
}
