import { CAPTURE_OBJECTIVES, type CaptureObjective } from "../detectors/capture-objectives.js";
import type { Kernel } from "../kernel/kernel.js";
import { compareEpisodeMetrics } from "../metrics/compare-episode-metrics.js";
import type { EpisodeMetrics } from "../metrics/episode-metrics.js";
import type { WorldConfig } from "../world/tournament-world.js";
import type { TournamentEpisodeResult } from "./tournament-episode-result.js";
import type { EpisodeRoster } from "./tournament-roster.js";

/** Report format version, bumped when a field changes meaning. */
export const TOURNAMENT_REPORT_FORMAT = "selfplay-tournament-report/1";

/** A detector's finding, placed in its episode. */
export interface ReportedFinding {
  episode: number;
  round: number;
  evidence: string;
  /** Whether the episode's red team was pursuing this objective (false: a side effect of another). */
  pursued: boolean;
}

export interface ReportedEpisode {
  episode: number;
  /** The episode's world, its derived turn-order seed included. */
  world: WorldConfig;
  roster: EpisodeRoster;
  /** Citizen → agent kind, in index order. */
  agents: Record<string, string>;
  metrics: EpisodeMetrics;
  findings: Array<{ objective: CaptureObjective; round: number; evidence: string }>;
  /** Refused submissions per kernel article, in the kernel's article order. */
  rejectedByArticle: Record<string, number>;
  /** Rounds closed, submissions (refused included), events logged. */
  roundsPlayed: number;
  actions: number;
  events: number;
  /** SHA-256 of the canonical JSON of the episode's event log. */
  eventLogHash: string;
  /** A search episode's cost in nodes (red candidate actions tried) and rounds; null for agent-played episodes. */
  search: TournamentEpisodeResult["search"];
}

/**
 * Everything a tournament found, as plain JSON. It holds no wall-clock time,
 * path or host, so the same (kernel text, options) give the same bytes.
 */
export interface TournamentReport {
  format: typeof TOURNAMENT_REPORT_FORMAT;
  kernel: { version: string; textSha256: string };
  seed: number;
  episodes: number;
  rounds: number;
  world: Omit<WorldConfig, "seed">;
  episodeResults: ReportedEpisode[];
  /** Episodes best first by the worst-off-first comparator; ties by episode index. */
  ranking: Array<{ rank: number; episode: number; objective: CaptureObjective | null } & Pick<EpisodeMetrics, "worstOffHonestWelfare" | "worstOffHonestCitizen" | "treasuryIntegrityPermille" | "participationPermille" | "legitimacyPermille">>;
  /** Every objective, in CAPTURE_OBJECTIVES order, with its findings in episode order. */
  findingsByObjective: Record<CaptureObjective, ReportedFinding[]>;
  /** Refused submissions per article over the whole tournament. */
  rejectedByArticle: Record<string, number>;
}

interface ReportOptions {
  kernel: Kernel;
  seed: number;
  episodes: number;
  rounds: number;
}

/** Builds the report from played episodes. Pure; key order is fixed by construction. */
export function buildTournamentReport(options: ReportOptions, episodes: readonly TournamentEpisodeResult[]): TournamentReport {
  const articleOrder = options.kernel.articles.map((article) => article.id);
  const episodeResults = episodes.map((episode) => reportEpisode(episode, articleOrder));
  const ranking = [...episodeResults]
    .sort((a, b) => compareEpisodeMetrics(a.metrics, b.metrics) || a.episode - b.episode)
    .map((entry, position) => ({
      rank: position + 1,
      episode: entry.episode,
      objective: entry.roster.objective,
      worstOffHonestWelfare: entry.metrics.worstOffHonestWelfare,
      worstOffHonestCitizen: entry.metrics.worstOffHonestCitizen,
      treasuryIntegrityPermille: entry.metrics.treasuryIntegrityPermille,
      participationPermille: entry.metrics.participationPermille,
      legitimacyPermille: entry.metrics.legitimacyPermille,
    }));
  const findingsByObjective = Object.fromEntries(CAPTURE_OBJECTIVES.map((objective) => [objective, [] as ReportedFinding[]])) as Record<CaptureObjective, ReportedFinding[]>;
  for (const entry of episodeResults) {
    for (const finding of entry.findings) {
      findingsByObjective[finding.objective].push({ episode: entry.episode, round: finding.round, evidence: finding.evidence, pursued: entry.roster.objective === finding.objective });
    }
  }
  const totals = new Map<string, number>();
  for (const entry of episodeResults) for (const [article, count] of Object.entries(entry.rejectedByArticle)) totals.set(article, (totals.get(article) ?? 0) + count);
  const first = episodes[0];
  return {
    format: TOURNAMENT_REPORT_FORMAT,
    kernel: { version: options.kernel.version, textSha256: options.kernel.textSha256 },
    seed: options.seed,
    episodes: options.episodes,
    rounds: options.rounds,
    world: first === undefined ? { numCitizens: 0, initialTreasury: 0, factions: 0 } : { numCitizens: first.world.numCitizens, initialTreasury: first.world.initialTreasury, factions: first.world.factions },
    episodeResults,
    ranking,
    findingsByObjective,
    rejectedByArticle: inArticleOrder(totals, articleOrder),
  };
}

function reportEpisode(episode: TournamentEpisodeResult, articleOrder: readonly string[]): ReportedEpisode {
  const rejected = new Map<string, number>();
  let roundsPlayed = 0;
  for (const event of episode.events) {
    if (event.type === "rejected") rejected.set(event.article ?? "action schema", (rejected.get(event.article ?? "action schema") ?? 0) + 1);
    else if (event.type === "round_ended") roundsPlayed += 1;
  }
  return {
    episode: episode.index,
    world: episode.world,
    roster: episode.roster,
    agents: episode.agents,
    metrics: episode.metrics,
    findings: episode.findings.map((finding) => ({ objective: finding.objective, round: finding.round, evidence: finding.evidence })),
    rejectedByArticle: inArticleOrder(rejected, articleOrder),
    roundsPlayed,
    actions: episode.transcript.actions.length,
    events: episode.events.length,
    eventLogHash: episode.eventLogHash,
    search: episode.search,
  };
}

/** Counts keyed by article, in the order the kernel lists its articles (so "Art. 2" comes before "Art. 10"). */
function inArticleOrder(counts: ReadonlyMap<string, number>, articleOrder: readonly string[]): Record<string, number> {
  const position = (article: string) => (articleOrder.includes(article) ? articleOrder.indexOf(article) : articleOrder.length);
  return Object.fromEntries([...counts].sort(([a], [b]) => position(a) - position(b) || (a < b ? -1 : a > b ? 1 : 0)));
}
