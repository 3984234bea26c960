import { InvalidInputError } from "../../core/errors/index.js";
import type { RandomStream } from "../../core/random/random-stream.js";
import type { ClusterPassRates } from "./cluster-pass-rates.js";
import type { LearnableSettings } from "./learnable-settings.js";

/** Which rule chose a cluster: weighted by what it can teach, the uniform floor, or uniform because no cluster weighs anything. */
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
}

const format = (value: number) => value.toFixed(3);

/**
 * Chooses clusters by what they can teach now, with no PRM: a cluster's
 * weight is p̂(1 − p̂) — the variance of one attempt's reward, so the share of
 * a GRPO group's attempts that disagree — from its smoothed recent pass rate
 * (an unplayed cluster has the prior's, 0.25 at 0.5, so it gets tried), plus
 * `progressWeight` × its learning progress. With probability `uniformFloor`
 * the cluster is drawn uniformly instead (the dream-cycle seed's sanity floor).
 */
export class LearnableFrontier {
  constructor(private readonly options: LearnableFrontierOptions) {}

  /** A cluster's weight now. */
  weight(cluster: string): number {
    const { passRates, settings } = this.options;
    const passRate = passRates.estimate(cluster);
    return passRate * (1 - passRate) + settings.progressWeight * passRates.progress(cluster);
  }

  pick(candidates: readonly string[]): LearnableDecision {
    if (candidates.length === 0) throw new InvalidInputError("candidates", "at least one cluster name", candidates);
    const { random, passRates, settings } = this.options;
    const weights = candidates.map((cluster) => this.weight(cluster));
    const byCluster = Object.fromEntries(candidates.map((cluster, index) => [cluster, weights[index] as number]));
    // Rolled first, on every call, so the draws a run makes do not depend on the weights' values.
    if (random.next() < settings.uniformFloor) {
      const cluster = random.pick(candidates);
      return { cluster, reason: "uniform-floor", weights: byCluster, message: `uniform floor (probability ${settings.uniformFloor}): ${cluster}, uniform over ${candidates.length} cluster(s)` };
    }
    const total = weights.reduce((sum, weight) => sum + weight, 0);
    if (total === 0) {
      const cluster = random.pick(candidates);
      return { cluster, reason: "all-weights-zero", weights: byCluster, message: `every weight is 0: ${cluster}, uniform over ${candidates.length} cluster(s)` };
    }
    const cluster = candidates[random.weightedIndex(weights)] as string;
    const passRate = passRates.estimate(cluster);
    return {
      cluster,
      reason: "learnable-weighted",
      weights: byCluster,
      message:
        `learnable: ${cluster} — weight ${format(byCluster[cluster] as number)} of ${format(total)} ` +
        `(pass rate ${format(passRate)} over ${passRates.attempts(cluster)} recent attempt(s), progress ${format(passRates.progress(cluster))})`,
    };
  }
}
