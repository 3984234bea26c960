import type { RiddleConfig } from "../riddle-config.js";
import type { RiddleEpisodeOutcome } from "../riddle-outcome.js";

/** critic_report.json: everything the critic decided in one episode. */
export interface CriticReport {
  episodeIndex: number;
  validity: Array<{ attempt: number; valid: boolean; notes: string }>;
  grades: Array<{ solverId: string; profile: string; wave: number; correct: boolean; notes: string }>;
  solved: number;
  solverRuns: number;
  solveRate: number | null;
  band: { low: number; high: number; inBand: boolean | null };
  earlyStop: RiddleEpisodeOutcome["earlyStop"];
  duplicate: RiddleEpisodeOutcome["duplicate"];
  /** The riddler's reward: the Gaussian of the solve rate less any duplicate penalty; 0 without a valid riddle. */
  reward: number;
  target: { solveRate: number; sigma: number };
}

export function criticReport(outcome: RiddleEpisodeOutcome, config: RiddleConfig): CriticReport {
  return {
    episodeIndex: outcome.episodeIndex,
    validity: outcome.attempts.map((attempt, index) => ({ attempt: index, valid: attempt.valid, notes: attempt.notes })),
    grades: outcome.solverRuns.map((run) => ({ solverId: run.solverId, profile: run.profile, wave: run.wave, correct: run.correct, notes: run.gradeNotes })),
    solved: outcome.solved,
    solverRuns: outcome.solverRuns.length,
    solveRate: outcome.solveRate,
    band: { ...config.band, inBand: inBand(outcome.solveRate, config) },
    earlyStop: outcome.earlyStop,
    duplicate: outcome.duplicate,
    reward: outcome.riddlerReward,
    target: { solveRate: config.reward.targetSolveRate, sigma: config.reward.sigma },
  };
}

/** Whether a solve rate lies in the configured band (ends included); null without one. */
export function inBand(solveRate: number | null, config: RiddleConfig): boolean | null {
  return solveRate === null ? null : solveRate >= config.band.low && solveRate <= config.band.high;
}
