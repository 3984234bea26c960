import { z } from "zod";
import { ClusterOutcomeSchema, type ClusterOutcome } from "./cluster-outcome.js";
import type { FrontierSettings } from "./frontier-settings.js";

/** A cluster's history as a checkpoint keeps it. */
export const ClusterHistorySnapshotSchema = z.object({
  outcomes: z.array(ClusterOutcomeSchema),
  recentHashes: z.array(z.string()),
  runs: z.number().int().min(0),
  firstAttemptWins: z.number().int().min(0),
});
export type ClusterHistorySnapshot = z.infer<typeof ClusterHistorySnapshotSchema>;

/** A cluster's mastery counters and recent outcomes, as the tracker reports them. */
export interface ClusterStats {
  cluster: string;
  /** Distinct challenges recorded (re-rolls of a recent one not counted). */
  runs: number;
  /** Distinct challenges whose outcome was clean. */
  firstAttemptWins: number;
  /** Outcomes remembered, re-rolls included. */
  outcomes: number;
  saturated: boolean;
  brittleness: number;
}

/** Everything the tracker remembers about one cluster. */
export class ClusterHistory {
  private readonly outcomes: ClusterOutcome[] = [];
  private readonly recentHashes: string[] = [];
  private runs = 0;
  private firstAttemptWins = 0;

  constructor(
    readonly cluster: string,
    private readonly settings: FrontierSettings,
    snapshot?: ClusterHistorySnapshot,
  ) {
    if (snapshot) {
      this.outcomes.push(...snapshot.outcomes);
      this.recentHashes.push(...snapshot.recentHashes);
      this.runs = snapshot.runs;
      this.firstAttemptWins = snapshot.firstAttemptWins;
    }
  }

  snapshot(): ClusterHistorySnapshot {
    return structuredClone({ outcomes: this.outcomes, recentHashes: this.recentHashes, runs: this.runs, firstAttemptWins: this.firstAttemptWins });
  }

  /**
   * Records an outcome and says whether it was a re-roll of a recent challenge.
   * A re-roll does not bump the mastery counters but is still appended to the
   * outcomes: saturation and the decay guard must see a deterministic
   * challenge's results change, or the cluster fossilises in the brittle pool.
   */
  record(outcome: ClusterOutcome): { duplicate: boolean } {
    const hash = outcome.challengeHash;
    const duplicate = hash !== undefined && this.recentHashes.includes(hash);
    if (!duplicate) {
      this.runs++;
      if (this.isClean(outcome)) this.firstAttemptWins++;
      if (hash !== undefined) {
        this.recentHashes.push(hash);
        if (this.recentHashes.length > this.settings.dedupWindow) this.recentHashes.shift();
      }
    }
    this.outcomes.push(outcome);
    if (this.outcomes.length > this.settings.historyLimit) this.outcomes.shift();
    return { duplicate };
  }

  isClean(outcome: ClusterOutcome): boolean {
    return outcome.firstAttemptRate >= this.settings.cleanThreshold;
  }

  /** Its last `saturationWindow` outcomes are all clean (never with fewer outcomes than that). */
  get saturated(): boolean {
    const window = this.settings.saturationWindow;
    return this.outcomes.length >= window && this.outcomes.slice(-window).every((outcome) => this.isClean(outcome));
  }

  /**
   * How much the cluster has recently struggled: over the brittleness window,
   * the sum of (1 − first-attempt rate) + (1 − success rate) — 1 for a
   * struggled-then-won challenge, 2 for a failure. The recent-win decay guard:
   * when the most recent outcome is clean the cluster has recovered and older
   * struggles no longer count, so one stale struggle cannot anchor it in the pool.
   */
  get brittleness(): number {
    const window = this.outcomes.slice(-this.settings.brittlenessWindow);
    const latest = window.at(-1);
    if (!latest || this.isClean(latest)) return 0;
    return window.reduce((total, outcome) => total + (1 - outcome.firstAttemptRate) + (1 - outcome.successRate), 0);
  }

  stats(): ClusterStats {
    return {
      cluster: this.cluster,
      runs: this.runs,
      firstAttemptWins: this.firstAttemptWins,
      outcomes: this.outcomes.length,
      saturated: this.saturated,
      brittleness: this.brittleness,
    };
  }
}
