import type { GenerateResult } from "../../core/schemas/generate-result.js";
import { RIDDLE_EPISODE_TYPE } from "../../riddles/episode/riddle-episode.js";
import type { RiddleArtifact } from "../../riddles/riddle-artifact.js";
import type { RiddleConfig } from "../../riddles/riddle-config.js";
import type { RiddleEpisodeOutcome } from "../../riddles/riddle-outcome.js";

/** Longest riddler-memory excerpt handed to a prompt (the artifact's own cap). */
const MAX_MEMORY_CHARS = 2000;

/** The first curriculum state of a training run: episode 0, nothing remembered. */
export function firstRiddleArtifact(): RiddleArtifact {
  return { episodeIndex: 0, riddlerMemory: "", actorMemory: "", recentRiddles: [] };
}

/**
 * The curriculum state after a step: the episode counter moved past the
 * step's riddle episodes, its accepted riddles appended to the recent ones
 * (the last `duplicates.window` kept, for the near-duplicate penalty), and a
 * one-line-per-riddle excerpt of the last `memory.excerptEpisodes` outcomes as
 * the riddler's memory. Episodes of one step all start from the same state, so
 * they are compared with earlier steps' riddles, not with each other's.
 */
export function nextRiddleArtifact(previous: RiddleArtifact, results: readonly GenerateResult[], config: RiddleConfig): RiddleArtifact {
  const outcomes = results
    .filter((result) => result.rollout.episodeType === RIDDLE_EPISODE_TYPE && result.outcome.status === "scored")
    .map((result) => result.rollout.artifacts as unknown as RiddleEpisodeOutcome);
  const accepted = outcomes.filter((outcome) => outcome.riddle !== null);
  const recentRiddles = [...previous.recentRiddles, ...accepted.map((outcome) => (outcome.riddle as NonNullable<RiddleEpisodeOutcome["riddle"]>).riddle)].slice(-config.duplicates.window);
  const lines = [...previous.riddlerMemory.split("\n").filter((line) => line !== ""), ...accepted.map(memoryLine)].slice(-config.memory.excerptEpisodes);
  return {
    episodeIndex: previous.episodeIndex + results.filter((result) => result.rollout.episodeType === RIDDLE_EPISODE_TYPE).length,
    riddlerMemory: config.memory.excerptEpisodes === 0 ? "" : lines.join("\n").slice(-MAX_MEMORY_CHARS),
    actorMemory: previous.actorMemory,
    recentRiddles,
  };
}

/** One structured line: the riddle, its solve rate and whether it repeated a recent one (never a chain of thought). */
function memoryLine(outcome: RiddleEpisodeOutcome): string {
  const rate = outcome.solveRate === null ? "n/a" : `${Math.round(100 * outcome.solveRate)}%`;
  return `- ${outcome.riddle?.riddle ?? ""} solved ${rate}${outcome.duplicate.nearDuplicate ? " (near-duplicate)" : ""}`;
}
