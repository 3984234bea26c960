import { CAPTURE_OBJECTIVES, type CaptureObjective } from "../detectors/capture-objectives.js";
import type { WorldConfig } from "../world/tournament-world.js";

/**
 * Red-team policies a roster may name: `scripted` plays an objective's fixed
 * policy (src/tournament/agents/red-team), `search` explores legal action
 * sequences scored by the objective (src/tournament/search).
 */
export const RED_POLICIES = ["scripted", "search"] as const;
export type RedPolicy = (typeof RED_POLICIES)[number];

/** Who plays what in one episode. Every citizen not in `redTeam` is honest. */
export interface EpisodeRoster {
  /** Red citizens' ids, in index order; empty for an all-honest episode. */
  redTeam: string[];
  /** The red team's capture objective; null when there is no red team. */
  objective: CaptureObjective | null;
  /** How the red team chooses its actions; null when there is no red team. */
  policy: RedPolicy | null;
}

/** Chooses each episode's roster from its index and the world; must be deterministic. */
export type TournamentRoster = (episodeIndex: number, world: WorldConfig) => EpisodeRoster;

export interface DefaultRosterOptions {
  /** Red citizens per episode, 0 to the number of citizens minus 1. Default 2 (chaining emergencies takes two). */
  redCitizens?: number;
  /** Red policy. Default `scripted`. */
  policy?: RedPolicy;
  /** Objectives rotated through, episode i playing objectives[i mod length]. Default all four, in CAPTURE_OBJECTIVES order. */
  objectives?: readonly CaptureObjective[];
}

/**
 * The default roster: episode i's red team pursues objectives[i mod 4], so a
 * tournament of four episodes or more tries every objective. The red
 * citizens are the first members of faction f0 (c0, c(F), c(2F)…), so the
 * other factions have no red member — faction suppression needs a faction
 * to suppress.
 */
export function defaultRoster(options: DefaultRosterOptions = {}): TournamentRoster {
  const size = options.redCitizens ?? 2;
  const policy = options.policy ?? "scripted";
  const objectives = options.objectives ?? CAPTURE_OBJECTIVES;
  return (episodeIndex, world) => {
    if (size === 0 || objectives.length === 0) return { redTeam: [], objective: null, policy: null };
    const members: string[] = [];
    // f0 first, then any citizen, when f0 is too small for the team.
    for (let index = 0; index < world.numCitizens && members.length < size; index += world.factions) members.push(`c${index}`);
    for (let index = 0; index < world.numCitizens && members.length < size; index++) if (!members.includes(`c${index}`)) members.push(`c${index}`);
    members.sort((a, b) => Number(a.slice(1)) - Number(b.slice(1)));
    return { redTeam: members.slice(0, Math.min(size, world.numCitizens - 1)), objective: objectives[episodeIndex % objectives.length] as CaptureObjective, policy };
  };
}
