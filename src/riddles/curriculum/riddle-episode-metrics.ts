import { z } from "zod";
import type { RiddleConfig } from "../riddle-config.js";
import type { RiddleEpisodeOutcome } from "../riddle-outcome.js";
import { inBand } from "./critic-report.js";

const share = z.number().min(0).max(1);

/** One line of `<out>/metrics.jsonl`: one episode, and the run's rates so far. */
export const RiddleEpisodeMetricsSchema = z.strictObject({
  episode: z.int().min(0),
  /** `failed`: the episode threw (the error is given); it has no riddle, no reward and no memory entry. */
  status: z.enum(["scored", "failed"]),
  error: z.string().nullable(),
  valid: z.boolean(),
  solveRate: share.nullable(),
  solved: z.int().min(0),
  solverRuns: z.int().min(0),
  inBand: z.boolean().nullable(),
  /** The riddler's reward (0 for a failed episode or one without a valid riddle). */
  reward: z.number(),
  /** Rejected riddles / riddles written, this episode (null when none was written). */
  invalidRate: share.nullable(),
  invalidAttempts: z.int().min(0),
  attempts: z.int().min(0),
  nearDuplicate: z.boolean(),
  similarity: share,
  partnersUsed: z.int().min(0),
  /** Partners / solver runs, this episode (null without solver runs). */
  partnerUse: share.nullable(),
  solverCallsSaved: z.int().min(0),
  earlyStop: z.enum(["below", "above"]).nullable(),
  tokensByRole: z.record(z.string(), z.int().min(0)),
  /** TrainingRecords this episode's rollout gave. */
  trainableRecords: z.int().min(0),
  /** The run so far, this episode included. */
  running: z.strictObject({
    episodes: z.int().min(0),
    failed: z.int().min(0),
    valid: z.int().min(0),
    /** Valid riddles whose solve rate fell in the band / valid riddles. */
    bandShare: share.nullable(),
    /** Rejected riddles / riddles written. */
    invalidRate: share.nullable(),
    /** Near-duplicates / valid riddles. */
    duplicateRate: share.nullable(),
    meanReward: z.number().nullable(),
    solverCallsSaved: z.int().min(0),
    partnersUsed: z.int().min(0),
  }),
});
export type RiddleEpisodeMetrics = z.infer<typeof RiddleEpisodeMetricsSchema>;

/** Counts across the run's episodes; `add` returns the episode's metrics line. */
export class RiddleMetricsTotals {
  private episodes = 0;
  private failed = 0;
  private valid = 0;
  private inBandCount = 0;
  private attempts = 0;
  private invalid = 0;
  private duplicates = 0;
  private rewardSum = 0;
  private saved = 0;
  private partners = 0;

  constructor(private readonly config: RiddleConfig) {}

  add(outcome: RiddleEpisodeOutcome, trainableRecords: number): RiddleEpisodeMetrics {
    const invalidAttempts = outcome.attempts.filter((attempt) => !attempt.valid).length;
    const hit = inBand(outcome.solveRate, this.config);
    this.episodes += 1;
    this.attempts += outcome.attempts.length;
    this.invalid += invalidAttempts;
    this.rewardSum += outcome.riddlerReward;
    this.saved += outcome.solverCallsSaved;
    this.partners += outcome.partnersUsed;
    if (outcome.riddle !== null) {
      this.valid += 1;
      if (hit === true) this.inBandCount += 1;
      if (outcome.duplicate.nearDuplicate) this.duplicates += 1;
    }
    const runs = outcome.solverRuns.length;
    return {
      episode: outcome.episodeIndex,
      status: "scored",
      error: null,
      valid: outcome.riddle !== null,
      solveRate: outcome.solveRate,
      solved: outcome.solved,
      solverRuns: runs,
      inBand: hit,
      reward: outcome.riddlerReward,
      invalidRate: ratio(invalidAttempts, outcome.attempts.length),
      invalidAttempts,
      attempts: outcome.attempts.length,
      nearDuplicate: outcome.duplicate.nearDuplicate,
      similarity: outcome.duplicate.similarity,
      partnersUsed: outcome.partnersUsed,
      partnerUse: ratio(Math.min(outcome.partnersUsed, runs), runs),
      solverCallsSaved: outcome.solverCallsSaved,
      earlyStop: outcome.earlyStop.side,
      tokensByRole: outcome.tokensByRole,
      trainableRecords,
      running: this.running(),
    };
  }

  /** A failed episode: counted, with nothing measured. */
  addFailure(episode: number, error: string): RiddleEpisodeMetrics {
    this.episodes += 1;
    this.failed += 1;
    return {
      episode,
      status: "failed",
      error,
      valid: false,
      solveRate: null,
      solved: 0,
      solverRuns: 0,
      inBand: null,
      reward: 0,
      invalidRate: null,
      invalidAttempts: 0,
      attempts: 0,
      nearDuplicate: false,
      similarity: 0,
      partnersUsed: 0,
      partnerUse: null,
      solverCallsSaved: 0,
      earlyStop: null,
      tokensByRole: {},
      trainableRecords: 0,
      running: this.running(),
    };
  }

  running(): RiddleEpisodeMetrics["running"] {
    return {
      episodes: this.episodes,
      failed: this.failed,
      valid: this.valid,
      bandShare: ratio(this.inBandCount, this.valid),
      invalidRate: ratio(this.invalid, this.attempts),
      duplicateRate: ratio(this.duplicates, this.valid),
      meanReward: this.episodes === this.failed ? null : this.rewardSum / (this.episodes - this.failed),
      solverCallsSaved: this.saved,
      partnersUsed: this.partners,
    };
  }
}

function ratio(count: number, total: number): number | null {
  return total === 0 ? null : count / total;
}
