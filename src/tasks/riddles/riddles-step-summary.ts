import type { GenerateResult } from "../../core/schemas/generate-result.js";
import { inBand } from "../../riddles/curriculum/critic-report.js";
import { RIDDLE_EPISODE_TYPE } from "../../riddles/episode/riddle-episode.js";
import { REJECTED_RIDDLER_ROLE_ID } from "../../riddles/episode/riddle-roles.js";
import type { RiddleConfig } from "../../riddles/riddle-config.js";
import type { RiddleEpisodeOutcome } from "../../riddles/riddle-outcome.js";

/** The riddle outcomes of a step's scored riddle episodes, in order. */
export function riddleOutcomes(results: readonly GenerateResult[]): RiddleEpisodeOutcome[] {
  return results
    .filter((result) => result.rollout.episodeType === RIDDLE_EPISODE_TYPE && result.outcome.status === "scored")
    .map((result) => result.rollout.artifacts as unknown as RiddleEpisodeOutcome);
}

/**
 * A step's riddle figures. Shares are 0 when their denominator is (no valid
 * riddle, no draft); counts are per step.
 */
export function riddlesStepSummary(results: readonly GenerateResult[], config: RiddleConfig): Record<string, number> {
  const riddleResults = results.filter((result) => result.rollout.episodeType === RIDDLE_EPISODE_TYPE);
  const outcomes = riddleOutcomes(results);
  const valid = outcomes.filter((outcome) => outcome.riddle !== null);
  const attempts = outcomes.reduce((sum, outcome) => sum + outcome.attempts.length, 0);
  const invalid = outcomes.reduce((sum, outcome) => sum + outcome.attempts.filter((attempt) => !attempt.valid).length, 0);
  const runs = valid.reduce((sum, outcome) => sum + outcome.solverRuns.length, 0);
  const solved = valid.reduce((sum, outcome) => sum + outcome.solved, 0);
  const ratio = (count: number, total: number) => (total === 0 ? 0 : count / total);
  return {
    riddleEpisodes: riddleResults.length,
    failedEpisodes: riddleResults.length - outcomes.length,
    validRiddles: valid.length,
    /** Valid riddles whose measured solve rate fell in the band / valid riddles: what the riddler is trained towards. */
    bandShare: ratio(valid.filter((outcome) => inBand(outcome.solveRate, config) === true).length, valid.length),
    /** Valid riddles solved less often than the band's low end / valid riddles: too hard. */
    belowBand: ratio(valid.filter((outcome) => (outcome.solveRate ?? 0) < config.band.low).length, valid.length),
    /** Valid riddles solved more often than the band's high end / valid riddles: too easy. */
    aboveBand: ratio(valid.filter((outcome) => (outcome.solveRate ?? 0) > config.band.high).length, valid.length),
    /** Mean solve rate of the valid riddles (each riddle weighted alike). */
    meanSolveRate: ratio(
      valid.reduce((sum, outcome) => sum + (outcome.solveRate ?? 0), 0),
      valid.length,
    ),
    /** Correct solver runs / solver runs. */
    solverAccuracy: ratio(solved, runs),
    /** Rejected drafts / drafts. */
    invalidRate: ratio(invalid, attempts),
    /** Rejected drafts' Steps: filed under the untrainable riddler-rejected role, so left out of the batch. */
    rejectedDrafts: results.reduce((sum, result) => sum + result.rollout.steps.filter((step) => step.roleId === REJECTED_RIDDLER_ROLE_ID).length, 0),
    /** Near-duplicates of a recent riddle / valid riddles. */
    duplicateRate: ratio(valid.filter((outcome) => outcome.duplicate.nearDuplicate).length, valid.length),
    meanRiddlerReward: ratio(
      outcomes.reduce((sum, outcome) => sum + outcome.riddlerReward, 0),
      outcomes.length,
    ),
    solverRuns: runs,
    /** Solver calls early stopping saved this step. */
    solverCallsSaved: outcomes.reduce((sum, outcome) => sum + outcome.solverCallsSaved, 0),
    earlyStops: outcomes.filter((outcome) => outcome.earlyStop.stopped).length,
  };
}
