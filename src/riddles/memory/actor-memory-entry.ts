import type { RiddleEpisodeOutcome } from "../riddle-outcome.js";
import { clip } from "./riddler-memory-entry.js";

/** How one instruction profile did in one episode. */
export interface ProfileResult {
  profile: string;
  runs: number;
  solved: number;
  /** Runs of this profile that asked for a partner, and how many of those solved. */
  partnerRuns: number;
  partnerSolved: number;
}

/** What actor_memory.md keeps of one episode: which profiles solved, and partner use. */
export interface ActorMemoryEntry {
  episodeIndex: number;
  solved: number;
  solverRuns: number;
  partnersUsed: number;
  /** In the order the profiles first ran. */
  profiles: ProfileResult[];
}

export function actorMemoryEntry(outcome: RiddleEpisodeOutcome): ActorMemoryEntry {
  const byProfile = new Map<string, ProfileResult>();
  for (const run of outcome.solverRuns) {
    const result = byProfile.get(run.profile) ?? { profile: run.profile, runs: 0, solved: 0, partnerRuns: 0, partnerSolved: 0 };
    result.runs += 1;
    if (run.correct) result.solved += 1;
    if (run.askedPartner) {
      result.partnerRuns += 1;
      if (run.correct) result.partnerSolved += 1;
    }
    byProfile.set(run.profile, result);
  }
  return { episodeIndex: outcome.episodeIndex, solved: outcome.solved, solverRuns: outcome.solverRuns.length, partnersUsed: outcome.partnersUsed, profiles: [...byProfile.values()] };
}

/** One line of the memory file; profile names are clipped to `profileWidth` characters. */
export function formatActorEntry(entry: ActorMemoryEntry, profileWidth = 32): string {
  if (entry.solverRuns === 0) return `- ep ${entry.episodeIndex} · no solvers ran (no valid riddle)`;
  const profiles = entry.profiles.map((result) => `${JSON.stringify(clip(result.profile, profileWidth))} ${result.solved}/${result.runs}`);
  return `- ep ${entry.episodeIndex} · solved ${entry.solved}/${entry.solverRuns} · partners ${entry.partnersUsed} · ${profiles.join(", ")}`;
}
