import { describe, expect, it } from "vitest";
import { InvalidInputError } from "../../../src/core/errors/index.js";
import { RandomStream } from "../../../src/core/random/random-stream.js";
import type { ClusterOutcome } from "../../../src/frontier/tracker/cluster-outcome.js";
import { FRONTIER_TARGET_HINT } from "../../../src/frontier/tracker/frontier-decision.js";
import type { FrontierSettingsInput } from "../../../src/frontier/tracker/frontier-settings.js";
import { FrontierTracker } from "../../../src/frontier/tracker/frontier-tracker.js";
import type { PrmScorer } from "../../../src/frontier/prm/prm-scorer.js";
import type { PrmState } from "../../../src/frontier/prm/prm-state.js";

const CLUSTERS = ["add-1x1-no-carry", "add-2x2-carry", "subtract-2x2-borrow"] as const;
const [EASY, CARRY, BORROW] = CLUSTERS;

/** No exploration and no uniform-sample roll unless a test asks: every rule is then deterministic given the weights. */
function tracker(settings: FrontierSettingsInput = {}, seed = "frontier") {
  const log: string[] = [];
  const frontier = new FrontierTracker({
    random: new RandomStream(seed),
    settings: { explorationProbability: 0, uniformSampleProbability: 0, ...settings },
    log: (message) => log.push(message),
  });
  return { frontier, log };
}

const clean = (cluster: string, challengeHash?: string): ClusterOutcome => ({ cluster, firstAttemptRate: 1, successRate: 1, challengeHash });
const struggled = (cluster: string, challengeHash?: string): ClusterOutcome => ({ cluster, firstAttemptRate: 0, successRate: 1, challengeHash });
const failed = (cluster: string, challengeHash?: string): ClusterOutcome => ({ cluster, firstAttemptRate: 0, successRate: 0, challengeHash });

/** A PRM that answers from a table of probabilities by cluster, and remembers what it was asked. */
class TablePrm implements PrmScorer {
  readonly calls: PrmState[][] = [];
  constructor(private readonly probabilities: Record<string, number>) {}
  async score(states: readonly PrmState[]): Promise<number[]> {
    this.calls.push([...states]);
    return states.map((state) => this.probabilities[state.cluster] ?? 0.5);
  }
}

const counts = { [EASY]: 3, [CARRY]: 3, [BORROW]: 3 };

describe("FrontierTracker outcome history", () => {
  it("keeps mastery counters per cluster", () => {
    const { frontier } = tracker();
    frontier.record(clean(EASY, "a"));
    frontier.record(struggled(EASY, "b"));
    frontier.record({ cluster: EASY, firstAttemptRate: 0.96, successRate: 1 });
    expect(frontier.clusterStats(EASY)).toMatchObject({ runs: 3, firstAttemptWins: 2, outcomes: 3 });
    expect(frontier.clusterStats(CARRY)).toMatchObject({ runs: 0, outcomes: 0, saturated: false, brittleness: 0 });
  });

  it("calls a cluster saturated when its last 2 outcomes are solved at ≥ 95% on the first attempt", () => {
    const { frontier } = tracker();
    frontier.record({ cluster: CARRY, firstAttemptRate: 0.97, successRate: 1 });
    expect(frontier.isSaturated(CARRY)).toBe(false);
    frontier.record({ cluster: CARRY, firstAttemptRate: 0.95, successRate: 1 });
    expect(frontier.isSaturated(CARRY)).toBe(true);
    frontier.record({ cluster: CARRY, firstAttemptRate: 0.94, successRate: 1 });
    expect(frontier.isSaturated(CARRY)).toBe(false);
  });

  it("scores brittleness over the window: 1 per struggle, 2 per failure", () => {
    const { frontier } = tracker({ brittlenessWindow: 3 });
    frontier.record(failed(CARRY));
    frontier.record(struggled(CARRY));
    expect(frontier.clusterStats(CARRY).brittleness).toBe(3);
    frontier.record({ cluster: CARRY, firstAttemptRate: 0.5, successRate: 0.75 });
    expect(frontier.clusterStats(CARRY).brittleness).toBe(3.75);
    // The failure leaves the window of 3.
    frontier.record(struggled(CARRY));
    expect(frontier.clusterStats(CARRY).brittleness).toBe(2.75);
  });

  it("decay guard: a clean latest outcome clears older struggles in the window", () => {
    const { frontier } = tracker();
    frontier.record(failed(BORROW));
    frontier.record(struggled(BORROW));
    frontier.record(clean(BORROW));
    expect(frontier.clusterStats(BORROW).brittleness).toBe(0);
    expect(frontier.pickSeed(CLUSTERS).reason).toBe("no-brittle-cluster");
    frontier.record(struggled(BORROW));
    expect(frontier.clusterStats(BORROW).brittleness).toBe(4);
  });

  it("dedups recent challenge hashes per cluster: counters stay, outcomes are still recorded", () => {
    const { frontier } = tracker();
    expect(frontier.record(failed(CARRY, "same"))).toEqual({ duplicate: false });
    expect(frontier.record(clean(CARRY, "same"))).toEqual({ duplicate: true });
    expect(frontier.record(clean(CARRY, "same"))).toEqual({ duplicate: true });
    // Another cluster has its own list.
    expect(frontier.record(clean(EASY, "same"))).toEqual({ duplicate: false });
    expect(frontier.clusterStats(CARRY)).toMatchObject({ runs: 1, firstAttemptWins: 0, outcomes: 3 });
    // The re-rolls' clean outcomes reach saturation and the decay guard.
    expect(frontier.isSaturated(CARRY)).toBe(true);
    expect(frontier.clusterStats(CARRY).brittleness).toBe(0);
  });

  it("remembers 20 hashes per cluster", () => {
    const { frontier } = tracker();
    frontier.record(clean(EASY, "h0"));
    for (let index = 1; index < 20; index++) frontier.record(clean(EASY, `h${index}`));
    expect(frontier.record(clean(EASY, "h0")).duplicate).toBe(true);
    frontier.record(clean(EASY, "h20"));
    expect(frontier.record(clean(EASY, "h0")).duplicate).toBe(false);
    expect(frontier.clusterStats(EASY).runs).toBe(22);
  });

  it("rejects an outcome whose success rate is below its first-attempt rate", () => {
    const { frontier } = tracker();
    expect(() => frontier.record({ cluster: EASY, firstAttemptRate: 1, successRate: 0.5 })).toThrow(InvalidInputError);
  });
});

describe("FrontierTracker.pickSeed", () => {
  it("weights the brittle pool by brittleness, leaving saturated and recovered clusters out", () => {
    const { frontier, log } = tracker();
    frontier.record(struggled(CARRY));
    frontier.record(failed(BORROW));
    frontier.record(clean(EASY));
    frontier.record(clean(EASY));
    const picks = { [CARRY]: 0, [BORROW]: 0, [EASY]: 0 };
    for (let draw = 0; draw < 3000; draw++) {
      const decision = frontier.pickSeed(CLUSTERS);
      expect(decision).toMatchObject({ reason: "brittle-pool", fallback: null, weights: { [CARRY]: 1, [BORROW]: 2 }, saturated: [EASY] });
      picks[decision.cluster as keyof typeof picks]++;
    }
    expect(picks[EASY]).toBe(0);
    // Weights 1 : 2.
    expect(picks[BORROW] / 3000).toBeGreaterThan(0.63);
    expect(picks[BORROW] / 3000).toBeLessThan(0.7);
    expect(log[0]).toMatch(/^brittle pool: (add-2x2-carry — brittleness 1\.000|subtract-2x2-borrow — brittleness 2\.000) of 3\.000$/);
  });

  it("explores uniformly over unsaturated clusters when its roll comes up", () => {
    const { frontier } = tracker({ explorationProbability: 1 });
    frontier.record(struggled(CARRY));
    frontier.record(clean(EASY));
    frontier.record(clean(EASY));
    const seen = new Set<string>();
    for (let draw = 0; draw < 200; draw++) {
      const decision = frontier.pickSeed(CLUSTERS);
      expect(decision.reason).toBe("exploration-roll");
      seen.add(decision.cluster);
    }
    expect([...seen].sort()).toEqual([CARRY, BORROW].sort());
  });

  it("rolls exploration at the configured rate (default 35%)", () => {
    const frontier = new FrontierTracker({ random: new RandomStream("rate") });
    frontier.record(struggled(CARRY));
    let explored = 0;
    for (let draw = 0; draw < 2000; draw++) if (frontier.pickSeed(CLUSTERS).reason === "exploration-roll") explored++;
    expect(explored / 2000).toBeGreaterThan(0.32);
    expect(explored / 2000).toBeLessThan(0.38);
  });

  it("explores when nothing is brittle, and says so when every cluster is saturated", () => {
    const { frontier } = tracker();
    expect(frontier.pickSeed(CLUSTERS)).toMatchObject({ reason: "no-brittle-cluster", saturated: [], weights: {} });
    for (const cluster of CLUSTERS) {
      frontier.record(clean(cluster));
      frontier.record(clean(cluster));
    }
    const decision = frontier.pickSeed(CLUSTERS);
    expect(decision).toMatchObject({ reason: "all-saturated", saturated: [...CLUSTERS] });
    expect(CLUSTERS).toContain(decision.cluster);
    expect(decision.message).toMatch(/every cluster is saturated .*rotate to new material/);
  });

  it("refuses no candidates or repeated ones", () => {
    const { frontier } = tracker();
    expect(() => frontier.pickSeed([])).toThrow(InvalidInputError);
    expect(() => frontier.pickSeed([EASY, EASY])).toThrow(/distinct/);
  });
});

describe("FrontierTracker.pickFrontierSeed", () => {
  it("weights clusters by PRM uncertainty × rarity, saturated ones at 0, and logs FRONTIER TARGET", async () => {
    const { frontier, log } = tracker();
    frontier.record(clean(EASY));
    frontier.record(clean(EASY));
    const prm = new TablePrm({ [EASY]: 0.5, [CARRY]: 0.5, [BORROW]: 0.9 });
    const decision = await frontier.pickFrontierSeed(CLUSTERS, { scorer: prm, trajectoryCounts: { [EASY]: 4, [CARRY]: 10 } });
    // CARRY: (1 − 2·0) / (1 + ln 11); BORROW: (1 − 2·0.4) / (1 + ln 1) = 0.2; EASY saturated.
    expect(decision.weights[EASY]).toBe(0);
    expect(decision.weights[CARRY]).toBeCloseTo(1 / (1 + Math.log(11)), 12);
    expect(decision.weights[BORROW]).toBeCloseTo(0.2, 12);
    expect(decision).toMatchObject({ reason: "prm-weighted", fallback: null, error: null, saturated: [EASY] });
    expect(decision.message.startsWith(FRONTIER_TARGET_HINT)).toBe(true);
    expect(log).toEqual([decision.message]);
    // Scored on one representative state per cluster: by default, the cluster's name and an empty prefix.
    expect(prm.calls).toEqual([CLUSTERS.map((cluster) => ({ task: cluster, cluster, prefix: "" }))]);
  });

  it("draws in proportion to the weights, reproducibly with the same seed", async () => {
    const prm = new TablePrm({ [EASY]: 0.5, [CARRY]: 0.75, [BORROW]: 1 });
    const run = async (seed: string) => {
      const { frontier } = tracker({}, seed);
      const clusters: string[] = [];
      for (let draw = 0; draw < 1500; draw++) clusters.push((await frontier.pickFrontierSeed(CLUSTERS, { scorer: prm, trajectoryCounts: counts })).cluster);
      return clusters;
    };
    const first = await run("same");
    expect(await run("same")).toEqual(first);
    expect(await run("other")).not.toEqual(first);
    // Equal rarity, uncertainties 1 : 0.5 : 0.
    const share = (cluster: string) => first.filter((name) => name === cluster).length / first.length;
    expect(share(BORROW)).toBe(0);
    expect(share(EASY)).toBeGreaterThan(0.63);
    expect(share(EASY)).toBeLessThan(0.71);
  });

  it("uses the caller's representative state for each cluster", async () => {
    const { frontier } = tracker();
    const prm = new TablePrm({});
    await frontier.pickFrontierSeed([CARRY], { scorer: prm, trajectoryCounts: counts, representativeState: (cluster) => ({ task: "58+67", cluster, prefix: "" }) });
    expect(prm.calls[0]).toEqual([{ task: "58+67", cluster: CARRY, prefix: "" }]);
  });

  it("falls back to pickSeed on a cold start: no PRM, or no trajectories", async () => {
    const { frontier, log } = tracker();
    frontier.record(struggled(CARRY));
    const noPrm = await frontier.pickFrontierSeed(CLUSTERS, { scorer: undefined, trajectoryCounts: counts });
    expect(noPrm).toMatchObject({ fallback: "cold-start", reason: "brittle-pool", cluster: CARRY });
    expect(log[0]).toBe("frontier fallback (cold start: no PRM yet) → brittle pool: add-2x2-carry — brittleness 1.000 of 1.000");
    const prm = new TablePrm({});
    const noTrajectories = await frontier.pickFrontierSeed(CLUSTERS, { scorer: prm, trajectoryCounts: { "another-cluster": 9 } });
    expect(noTrajectories).toMatchObject({ fallback: "cold-start", reason: "brittle-pool" });
    expect(noTrajectories.message).toMatch(/^frontier fallback \(cold start: no trajectories yet\) → /);
    expect(prm.calls).toEqual([]);
  });

  it("falls back on the uniform-sample roll, at its rate (default 20%), without asking the PRM", async () => {
    const always = tracker({ uniformSampleProbability: 1 });
    const prm = new TablePrm({});
    const decision = await always.frontier.pickFrontierSeed(CLUSTERS, { scorer: prm, trajectoryCounts: counts });
    expect(decision.fallback).toBe("uniform-sample-roll");
    expect(decision.message).toMatch(/^frontier fallback \(uniform-sample roll, probability 1\) → exploration: no brittle cluster/);
    expect(prm.calls).toEqual([]);

    const frontier = new FrontierTracker({ random: new RandomStream("uniform-rate"), settings: { explorationProbability: 0 } });
    let rolled = 0;
    for (let draw = 0; draw < 2000; draw++) {
      if ((await frontier.pickFrontierSeed(CLUSTERS, { scorer: prm, trajectoryCounts: counts })).fallback === "uniform-sample-roll") rolled++;
    }
    expect(rolled / 2000).toBeGreaterThan(0.17);
    expect(rolled / 2000).toBeLessThan(0.23);
    expect(frontier.decisionCounts()["fallback:uniform-sample-roll"]).toBe(rolled);
    expect(frontier.decisionCounts()["prm-weighted"]).toBe(2000 - rolled);
  });

  it("falls back when every weight is zero: certain PRM or saturated clusters", async () => {
    const { frontier } = tracker();
    frontier.record(clean(BORROW));
    frontier.record(clean(BORROW));
    const certain = new TablePrm({ [EASY]: 1, [CARRY]: 0, [BORROW]: 0.5 });
    const decision = await frontier.pickFrontierSeed(CLUSTERS, { scorer: certain, trajectoryCounts: counts });
    expect(decision).toMatchObject({ fallback: "all-weights-zero", reason: "no-brittle-cluster" });
    expect([EASY, CARRY]).toContain(decision.cluster);
  });

  it("falls back to pickSeed when the PRM throws, recording the error", async () => {
    const { frontier, log } = tracker();
    frontier.record(failed(BORROW));
    const broken: PrmScorer = {
      score: async () => {
        throw new Error("onnxruntime: session released");
      },
    };
    const decision = await frontier.pickFrontierSeed(CLUSTERS, { scorer: broken, trajectoryCounts: counts });
    expect(decision).toMatchObject({ fallback: "prm-error", reason: "brittle-pool", cluster: BORROW, error: "Error: onnxruntime: session released" });
    expect(log[0]).toMatch(/^frontier fallback \(PRM error: Error: onnxruntime: session released\) → brittle pool: subtract-2x2-borrow/);
    expect(frontier.decisionCounts()).toEqual({ "brittle-pool": 1, "fallback:prm-error": 1 });
  });

  it("treats a PRM that returns the wrong count, NaN or a number outside [0, 1] as an error", async () => {
    const { frontier } = tracker();
    for (const answer of [[0.5], [0.5, Number.NaN, 0.5], [0.5, 1.5, 0.5]]) {
      const decision = await frontier.pickFrontierSeed(CLUSTERS, { scorer: { score: async () => answer }, trajectoryCounts: counts });
      expect(decision.fallback).toBe("prm-error");
      expect(decision.error).toMatch(/^InvalidPrmScoreError: expected 3 probabilities in \[0, 1\]/);
    }
  });
});

describe("FrontierTracker.adaptiveCooldownSeconds", () => {
  it("stays at 5 s while outcomes struggle, doubles per clean outcome in a row up to 180 s", () => {
    const { frontier } = tracker();
    expect(frontier.adaptiveCooldownSeconds()).toBe(5);
    frontier.record(struggled(CARRY));
    expect(frontier.adaptiveCooldownSeconds()).toBe(5);
    const seen: number[] = [];
    for (let index = 0; index < 7; index++) {
      frontier.record(clean(EASY));
      seen.push(frontier.adaptiveCooldownSeconds());
    }
    expect(seen).toEqual([10, 20, 40, 80, 160, 180, 180]);
    frontier.record(failed(BORROW));
    expect(frontier.adaptiveCooldownSeconds()).toBe(5);
  });

  it("takes its bounds from the settings, and refuses a maximum below the minimum", () => {
    const { frontier } = tracker({ minimumCooldownSeconds: 1, maximumCooldownSeconds: 3 });
    frontier.record(clean(EASY));
    frontier.record(clean(EASY));
    expect(frontier.adaptiveCooldownSeconds()).toBe(3);
    expect(() => tracker({ minimumCooldownSeconds: 10, maximumCooldownSeconds: 5 })).toThrow(/maximumCooldownSeconds/);
  });
});
