import { InvalidInputError, toErrorRecord } from "../../core/errors/index.js";
import { InvalidPrmScoreError } from "../errors/index.js";
import { parseInput } from "../../core/parse-input.js";
import { RandomStream } from "../../core/random/random-stream.js";
import type { PrmScorer } from "../prm/prm-scorer.js";
import type { PrmState } from "../prm/prm-state.js";
import { ClusterHistory, type ClusterStats } from "./cluster-history.js";
import { ClusterOutcomeSchema, type ClusterOutcome } from "./cluster-outcome.js";
import { FRONTIER_TARGET_HINT, type FrontierDecision, type FrontierFallback, type FrontierReason } from "./frontier-decision.js";
import { boundaryUncertainty, clusterRarity } from "./frontier-signals.js";
import { FrontierSettingsSchema, type FrontierSettings, type FrontierSettingsInput } from "./frontier-settings.js";
import { FrontierTrackerSnapshotSchema, type FrontierTrackerSnapshot } from "./frontier-tracker-snapshot.js";

export interface FrontierTrackerOptions {
  /** Every draw (exploration rolls, weighted picks) comes from here. */
  random: RandomStream;
  settings?: FrontierSettingsInput;
  /** Receives each decision's message. Default: nothing (the decision is returned either way). */
  log?: (message: string) => void;
}

/** What `pickFrontierSeed` weighs clusters by. */
export interface FrontierSignals {
  /** The PRM; undefined when none is trained yet (a cold start). */
  scorer: PrmScorer | undefined;
  /** Labelled trajectories collected per cluster; a missing cluster has none. */
  trajectoryCounts: Readonly<Record<string, number>>;
  /** The state the PRM scores for a cluster. Default: the cluster's name as the task, an empty prefix. */
  representativeState?: (cluster: string) => PrmState;
}

const defaultRepresentativeState = (cluster: string): PrmState => ({ task: cluster, cluster, prefix: "" });
const format = (value: number) => value.toFixed(3);

/**
 * Chooses which cluster self-play targets next, from each cluster's outcome
 * history and, when there is one, a PRM. `pickSeed` weights the brittle pool;
 * `pickFrontierSeed` weights by PRM uncertainty × rarity and falls back to
 * `pickSeed` on a cold start, a uniform-sample roll, all-zero weights or any
 * PRM error — frontier weighting must never block a cycle. Every decision
 * carries its reason and is logged.
 */
export class FrontierTracker {
  readonly settings: FrontierSettings;
  private readonly random: RandomStream;
  private readonly log: (message: string) => void;
  private readonly histories = new Map<string, ClusterHistory>();
  private readonly decisions = new Map<string, number>();
  /** Clean outcomes in a row, most recent last, over all clusters: drives the cooldown. */
  private cleanStreak = 0;

  constructor(options: FrontierTrackerOptions) {
    this.settings = parseInput(FrontierSettingsSchema, options.settings ?? {});
    this.random = options.random;
    this.log = options.log ?? (() => undefined);
  }

  /**
   * The tracker a `snapshot()` was taken of, its generator where it was: a
   * resumed run makes the draws the uninterrupted one would have made.
   */
  static restore(snapshot: FrontierTrackerSnapshot, options: Omit<FrontierTrackerOptions, "random">): FrontierTracker {
    const parsed = parseInput(FrontierTrackerSnapshotSchema, snapshot, { fieldName: (path) => `frontier.${path.map(String).join(".")}` });
    const tracker = new FrontierTracker({ ...options, random: RandomStream.fromState(parsed.random) });
    for (const [cluster, history] of Object.entries(parsed.histories)) tracker.histories.set(cluster, new ClusterHistory(cluster, tracker.settings, history));
    for (const [key, count] of Object.entries(parsed.decisions)) tracker.decisions.set(key, count);
    tracker.cleanStreak = parsed.cleanStreak;
    return tracker;
  }

  /** Everything the tracker remembers, its generator's state included, as JSON. */
  snapshot(): FrontierTrackerSnapshot {
    return {
      histories: Object.fromEntries([...this.histories].map(([cluster, history]) => [cluster, history.snapshot()])),
      decisions: Object.fromEntries(this.decisions),
      cleanStreak: this.cleanStreak,
      random: this.random.state(),
    };
  }

  /** Records an outcome; `duplicate` says it was a re-roll of one of the cluster's recent challenges. */
  record(outcome: ClusterOutcome): { duplicate: boolean } {
    const parsed = parseInput(ClusterOutcomeSchema, outcome);
    const history = this.history(parsed.cluster);
    this.cleanStreak = history.isClean(parsed) ? this.cleanStreak + 1 : 0;
    return history.record(parsed);
  }

  clusterStats(cluster: string): ClusterStats {
    return this.history(cluster).stats();
  }

  isSaturated(cluster: string): boolean {
    return this.histories.get(cluster)?.saturated ?? false;
  }

  /** How many decisions each reason (and `fallback:` kind) accounts for so far. */
  decisionCounts(): Record<string, number> {
    return Object.fromEntries([...this.decisions].sort(([a], [b]) => a.localeCompare(b)));
  }

  /**
   * Seconds to wait before the next self-play cycle: the minimum while
   * outcomes still struggle (there is signal to learn from), doubling with
   * each clean outcome in a row up to the maximum (the model aces what it is
   * given; spinning faster teaches nothing).
   */
  adaptiveCooldownSeconds(): number {
    const { minimumCooldownSeconds, maximumCooldownSeconds } = this.settings;
    return Math.min(maximumCooldownSeconds, minimumCooldownSeconds * 2 ** this.cleanStreak);
  }

  /** The brittle-pool pick over `candidates` (see FrontierReason). */
  pickSeed(candidates: readonly string[]): FrontierDecision {
    return this.finish(this.seedDecision(checkCandidates(candidates), null));
  }

  /** The PRM-weighted pick over `candidates`, or `pickSeed`'s with the fallback that was taken. */
  async pickFrontierSeed(candidates: readonly string[], signals: FrontierSignals): Promise<FrontierDecision> {
    const clusters = checkCandidates(candidates);
    const fallBack = (kind: FrontierFallback, description: string, error: string | null = null) =>
      this.finish(this.seedDecision(clusters, { kind, description, error }));
    // Rolled first, on every call, so the draws a run makes do not depend on what the PRM says.
    if (this.random.next() < this.settings.uniformSampleProbability) {
      return fallBack("uniform-sample-roll", `uniform-sample roll, probability ${this.settings.uniformSampleProbability}`);
    }
    const counts = clusters.map((cluster) => signals.trajectoryCounts[cluster] ?? 0);
    if (!signals.scorer) return fallBack("cold-start", "cold start: no PRM yet");
    if (counts.every((count) => count === 0)) return fallBack("cold-start", "cold start: no trajectories yet");
    let weighted: FrontierDecision | "all-weights-zero";
    try {
      weighted = await this.prmWeightedDecision(clusters, counts, signals.scorer, signals.representativeState ?? defaultRepresentativeState);
    } catch (error) {
      const record = toErrorRecord(error);
      const summary = `${record.name}: ${record.message}`;
      return fallBack("prm-error", `PRM error: ${summary}`, summary);
    }
    if (weighted === "all-weights-zero") return fallBack("all-weights-zero", "all frontier weights zero: every cluster saturated or certain");
    return this.finish(weighted);
  }

  /** The draw weighted by uncertainty × rarity; throws whatever the PRM throws, or InvalidPrmScoreError. */
  private async prmWeightedDecision(
    clusters: readonly string[],
    counts: readonly number[],
    scorer: PrmScorer,
    representativeState: (cluster: string) => PrmState,
  ): Promise<FrontierDecision | "all-weights-zero"> {
    const probabilities = await scorer.score(clusters.map(representativeState));
    if (probabilities.length !== clusters.length || !probabilities.every((value) => value >= 0 && value <= 1)) {
      throw new InvalidPrmScoreError(`expected ${clusters.length} probabilities in [0, 1], got ${JSON.stringify(probabilities)}`);
    }
    const saturated = clusters.filter((cluster) => this.isSaturated(cluster));
    const uncertainties = probabilities.map(boundaryUncertainty);
    const rarities = counts.map(clusterRarity);
    const weights = clusters.map((cluster, index) => (this.isSaturated(cluster) ? 0 : (uncertainties[index] as number) * (rarities[index] as number)));
    if (weights.every((weight) => weight === 0)) return "all-weights-zero";
    const index = this.random.weightedIndex(weights);
    const cluster = clusters[index] as string;
    const total = weights.reduce((sum, weight) => sum + weight, 0);
    return {
      cluster,
      reason: "prm-weighted",
      fallback: null,
      weights: Object.fromEntries(clusters.map((name, position) => [name, weights[position] as number])),
      saturated,
      error: null,
      message:
        `${FRONTIER_TARGET_HINT}: ${cluster} — weight ${format(weights[index] as number)} of ${format(total)} ` +
        `(uncertainty ${format(uncertainties[index] as number)}, rarity ${format(rarities[index] as number)})` +
        (saturated.length > 0 ? `; saturated: ${saturated.join(", ")}` : ""),
    };
  }

  private seedDecision(clusters: readonly string[], fallback: { kind: FrontierFallback; description: string; error: string | null } | null): FrontierDecision {
    const saturated = clusters.filter((cluster) => this.isSaturated(cluster));
    const open = clusters.filter((cluster) => !this.isSaturated(cluster));
    const decide = (cluster: string, reason: FrontierReason, weights: Record<string, number>, detail: string): FrontierDecision => ({
      cluster,
      reason,
      fallback: fallback?.kind ?? null,
      weights,
      saturated,
      error: fallback?.error ?? null,
      message: `${fallback === null ? "" : `frontier fallback (${fallback.description}) → `}${detail}`,
    });
    // Always drawn, so the draws do not depend on the histories.
    const explore = this.random.next() < this.settings.explorationProbability;
    if (explore && open.length > 0) {
      const cluster = this.random.pick(open);
      return decide(cluster, "exploration-roll", {}, `exploration roll: ${cluster}, uniform over ${open.length} unsaturated cluster(s)`);
    }
    const brittle = open.filter((cluster) => this.history(cluster).brittleness > 0);
    if (brittle.length > 0) {
      const brittleness = brittle.map((cluster) => this.history(cluster).brittleness);
      const index = this.random.weightedIndex(brittleness);
      const cluster = brittle[index] as string;
      const total = brittleness.reduce((sum, value) => sum + value, 0);
      const weights = Object.fromEntries(brittle.map((name, position) => [name, brittleness[position] as number]));
      return decide(cluster, "brittle-pool", weights, `brittle pool: ${cluster} — brittleness ${format(brittleness[index] as number)} of ${format(total)}`);
    }
    if (open.length > 0) {
      const cluster = this.random.pick(open);
      return decide(cluster, "no-brittle-cluster", {}, `exploration: no brittle cluster; ${cluster}, uniform over ${open.length} unsaturated cluster(s)`);
    }
    const cluster = this.random.pick(clusters);
    return decide(cluster, "all-saturated", {}, `exploration: every cluster is saturated (${saturated.join(", ")}); ${cluster}, uniform — rotate to new material`);
  }

  private finish(decision: FrontierDecision): FrontierDecision {
    for (const key of [decision.reason, ...(decision.fallback === null ? [] : [`fallback:${decision.fallback}`])]) {
      this.decisions.set(key, (this.decisions.get(key) ?? 0) + 1);
    }
    this.log(decision.message);
    return decision;
  }

  private history(cluster: string): ClusterHistory {
    let history = this.histories.get(cluster);
    if (!history) {
      history = new ClusterHistory(cluster, this.settings);
      this.histories.set(cluster, history);
    }
    return history;
  }
}

function checkCandidates(candidates: readonly string[]): readonly string[] {
  if (candidates.length === 0) throw new InvalidInputError("candidates", "at least one cluster name", candidates);
  if (new Set(candidates).size !== candidates.length) throw new InvalidInputError("candidates", "distinct cluster names", candidates);
  return candidates;
}
