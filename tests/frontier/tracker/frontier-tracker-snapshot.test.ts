import { describe, expect, it } from "vitest";
import { InvalidInputError } from "../../../src/core/errors/index.js";
import { RandomStream } from "../../../src/core/random/random-stream.js";
import { FrontierTracker } from "../../../src/frontier/tracker/frontier-tracker.js";
import type { PrmScorer } from "../../../src/frontier/prm/prm-scorer.js";

const CLUSTERS = ["add-1x1-no-carry", "add-2x2-carry", "subtract-2x2-borrow", "subtract-2x1-no-borrow"];
const prm: PrmScorer = { score: async (states) => states.map((state) => (state.cluster.startsWith("add") ? 0.4 : 0.9)) };
const signals = { scorer: prm, trajectoryCounts: { "add-1x1-no-carry": 2, "add-2x2-carry": 9, "subtract-2x2-borrow": 1 } };

/** Ten rounds of (pick, record an outcome of the picked cluster), with every rule in play. */
async function play(tracker: FrontierTracker, rounds: number): Promise<string[]> {
  const picks: string[] = [];
  for (let round = 0; round < rounds; round++) {
    const decision = round % 3 === 0 ? tracker.pickSeed(CLUSTERS) : await tracker.pickFrontierSeed(CLUSTERS, signals);
    picks.push(`${decision.cluster} ${decision.reason} ${decision.fallback}`);
    const rate = (round % 4) / 3;
    tracker.record({ cluster: decision.cluster, firstAttemptRate: rate, successRate: Math.min(1, rate + 0.3), challengeHash: `h${round % 5}` });
  }
  return picks;
}

describe("FrontierTracker snapshot and restore", () => {
  it("continues exactly as the tracker it was taken of: draws, histories, decisions, cooldown", async () => {
    const settings = { explorationProbability: 0.3, uniformSampleProbability: 0.25 };
    const uninterrupted = new FrontierTracker({ random: new RandomStream("snapshot"), settings });
    const first = await play(uninterrupted, 10);
    const rest = await play(uninterrupted, 20);

    const stopped = new FrontierTracker({ random: new RandomStream("snapshot"), settings });
    expect(await play(stopped, 10)).toEqual(first);
    // Through JSON, as a checkpoint stores it.
    const restored = FrontierTracker.restore(JSON.parse(JSON.stringify(stopped.snapshot())), { settings });
    expect(await play(restored, 20)).toEqual(rest);
    expect(restored.snapshot()).toEqual(uninterrupted.snapshot());
    expect(restored.decisionCounts()).toEqual(uninterrupted.decisionCounts());
    expect(restored.adaptiveCooldownSeconds()).toBe(uninterrupted.adaptiveCooldownSeconds());
    for (const cluster of CLUSTERS) expect(restored.clusterStats(cluster)).toEqual(uninterrupted.clusterStats(cluster));
    // The rules were exercised: weighted picks and fallbacks, and some re-rolled challenges.
    expect(Object.keys(uninterrupted.decisionCounts())).toEqual(expect.arrayContaining(["prm-weighted", "fallback:uniform-sample-roll"]));
  });

  it("names the field of a snapshot that does not validate", () => {
    const snapshot = new FrontierTracker({ random: new RandomStream("bad") }).snapshot();
    expect(() => FrontierTracker.restore({ ...snapshot, cleanStreak: -1 }, {})).toThrow(InvalidInputError);
    expect(() => FrontierTracker.restore({ ...snapshot, cleanStreak: -1 }, {})).toThrow(/frontier\.cleanStreak/);
  });
});
