import type { RiddleEpisodeOutcome } from "../riddle-outcome.js";
import { riddleId } from "./riddle-id.js";

/** What riddler_memory.md keeps of one episode: measured facts only, never a chain of thought. */
export interface RiddlerMemoryEntry {
  episodeIndex: number;
  /** Null when the critic rejected every attempt (the episode was a no-op). */
  riddleId: string | null;
  riddle: string | null;
  tags: string[];
  difficultyGuessPct: number | null;
  solved: number;
  solverRuns: number;
  solveRate: number | null;
  reward: number;
  nearDuplicate: boolean;
  /** Riddles written this episode, the rejected ones included. */
  attempts: number;
}

export function riddlerMemoryEntry(outcome: RiddleEpisodeOutcome): RiddlerMemoryEntry {
  return {
    episodeIndex: outcome.episodeIndex,
    riddleId: outcome.riddle === null ? null : riddleId(outcome.riddle.riddle),
    riddle: outcome.riddle?.riddle ?? null,
    tags: outcome.riddle?.tags ?? [],
    difficultyGuessPct: outcome.riddle?.difficultyGuessPct ?? null,
    solved: outcome.solved,
    solverRuns: outcome.solverRuns.length,
    solveRate: outcome.solveRate,
    reward: outcome.riddlerReward,
    nearDuplicate: outcome.duplicate.nearDuplicate,
    attempts: outcome.attempts.length,
  };
}

/** One line of the memory file. `riddleWidth` clips the riddle's text (0 leaves it out). */
export function formatRiddlerEntry(entry: RiddlerMemoryEntry, riddleWidth = 80): string {
  if (entry.riddleId === null) {
    return `- ep ${entry.episodeIndex} · no valid riddle after ${entry.attempts} attempt(s) · reward ${entry.reward.toFixed(3)}`;
  }
  const parts = [
    `- ep ${entry.episodeIndex}`,
    `id ${entry.riddleId}`,
    `tags ${entry.tags.length === 0 ? "-" : entry.tags.join(",")}`,
    `guessed ${entry.difficultyGuessPct}%`,
    `solved ${entry.solved}/${entry.solverRuns} (${percent(entry.solveRate)})`,
    `reward ${entry.reward.toFixed(3)}`,
    `duplicate ${entry.nearDuplicate ? "yes" : "no"}`,
  ];
  if (riddleWidth > 0 && entry.riddle !== null) parts.push(JSON.stringify(clip(entry.riddle.replace(/\s+/g, " "), riddleWidth)));
  return parts.join(" · ");
}

export function percent(share: number | null): string {
  return share === null ? "-" : `${Math.round(share * 100)}%`;
}

export function clip(text: string, width: number): string {
  return text.length <= width ? text : `${text.slice(0, width - 1)}…`;
}
