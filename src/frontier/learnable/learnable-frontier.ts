import { InvalidInputError } from "../../core/errors/index.js";
import type { RandomStream } from "../../core/random/random-stream.js";
import type { ClusterPassRates } from "./cluster-pass-rates.js";
import type { LearnableSettings } from "./learnable-settings.js";

/** Which rule chose a cluster: weighted by what it can teach, the floor (by data share), or by share because no cluster weighs anything. */
export type LearnableReason = "learnable-weighted" | "uniform-floor" | "all-weights-zero";

/** A chosen cluster, the rule that chose it and the logged message. */
export interface LearnableDecision {
  cluster: string;
  reason: LearnableReason;
  /** Every candidate's weight at the draw. */
  weights: Record<string, number>;
  message: string;
}

export interface LearnableFrontierOptions {
  /** Every draw (the floor roll, the pick) comes from here. */
  random: RandomStream;
  /** The clusters' recent pass rates, which the caller feeds. */
  passRates: ClusterPassRates;
  settings: LearnableSettings;
  /**
   * Each cluster's share of the task's data, relative (a cluster's artifact
   * or problem count); a cluster not named has share 0. Absent, or all 0:
   * equal shares.
   */
  shares?: Readonly<Record<string, number>>;
  /** Attempts in one GRPO group of a cluster's prompt (2 where there are no groups). Default 2. */
  groupSize?: number;
}

const format = (value: number) => value.toFixed(3);

/**
 * The probability that a group of `groupSize` attempts at pass rate p does not
 * agree — some pass and some fail — so it has a non-zero GRPO advantage:
 * 1 − p^G − (1 − p)^G. At G = 2 it is 2p(1 − p).
 */
export function disagreement(passRate: number, groupSize: number): number {
  return 1 - passRate ** groupSize - (1 - passRate) ** groupSize;
}

/**
 * Chooses clusters by what they can teach now, with no PRM. A cluster's weight
 * is its share of the data × the probability that a group of its attempts
 * disagrees (has a gradient) at its smoothed recent pass rate — an unplayed
 * cluster has the prior's, so it gets tried — plus `progressWeight` × its
 * learning progress, also × its share. The share keeps the picks where the
 * task's problems are (a 9-row cluster is not played as often as an 81-row
 * one); the disagreement moves them off clusters that are always or never
 * solved. With probability `uniformFloor` the cluster is drawn by share alone
 * — uniform over the data, the dream-cycle seed's sanity floor.
 */
export class LearnableFrontier {
  private readonly groupSize: number;
  /** The shares as fractions of their sum; undefined for equal shares. */
  private readonly shares: ReadonlyMap<string, number> | undefined;

  constructor(private readonly options: LearnableFrontierOptions) {
    this.groupSize = Math.max(2, options.groupSize ?? 2);
    if (options.shares === undefined) return;
    const entries = Object.entries(options.shares);
    for (const [cluster, share] of entries) {
      if (!(share >= 0) || !Number.isFinite(share)) throw new InvalidInputError(`clusters.shares.${cluster}`, "a finite number ≥ 0", share);
    }
    const total = entries.reduce((sum, [, share]) => sum + share, 0);
    if (total > 0) this.shares = new Map(entries.map(([cluster, share]) => [cluster, share / total]));
  }

  /** A cluster's share of the data, as a fraction of all the shares named (1 with equal shares). */
  share(cluster: string): number {
    return this.shares === undefined ? 1 : (this.shares.get(cluster) ?? 0);
  }

  /** A cluster's weight now. */
  weight(cluster: string): number {
    const { passRates, settings } = this.options;
    return this.share(cluster) * (disagreement(passRates.estimate(cluster), this.groupSize) + settings.progressWeight * passRates.progress(cluster));
  }

  pick(candidates: readonly string[]): LearnableDecision {
    if (candidates.length === 0) throw new InvalidInputError("candidates", "at least one cluster name", candidates);
    const { random, passRates, settings } = this.options;
    const weights = candidates.map((cluster) => this.weight(cluster));
    const byCluster = Object.fromEntries(candidates.map((cluster, index) => [cluster, weights[index] as number]));
    // Rolled first, on every call, so the draws a run makes do not depend on the weights' values.
    if (random.next() < settings.uniformFloor) {
      const cluster = this.byShare(candidates);
      return { cluster, reason: "uniform-floor", weights: byCluster, message: `uniform floor (probability ${settings.uniformFloor}): ${cluster}, by data share over ${candidates.length} cluster(s)` };
    }
    const total = weights.reduce((sum, weight) => sum + weight, 0);
    if (total === 0) {
      const cluster = this.byShare(candidates);
      return { cluster, reason: "all-weights-zero", weights: byCluster, message: `every weight is 0: ${cluster}, by data share over ${candidates.length} cluster(s)` };
    }
    const cluster = candidates[random.weightedIndex(weights)] as string;
    return {
      cluster,
      reason: "learnable-weighted",
      weights: byCluster,
      message:
        `learnable: ${cluster} — weight ${format(byCluster[cluster] as number)} of ${format(total)} ` +
        `(share ${format(this.share(cluster))}, pass rate ${format(passRates.estimate(cluster))} over ${passRates.attempts(cluster)} recent attempt(s), ` +
        `groups of ${this.groupSize} disagree ${format(disagreement(passRates.estimate(cluster), this.groupSize))}, progress ${format(passRates.progress(cluster))})`,
    };
  }

  /** A candidate drawn in proportion to its share; uniformly when no candidate has any. */
  private byShare(candidates: readonly string[]): string {
    const { random } = this.options;
    const shares = candidates.map((cluster) => this.share(cluster));
    return shares.some((share) => share > 0) ? (candidates[random.weightedIndex(shares)] as string) : random.pick(candidates);
  }
}
