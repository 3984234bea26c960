import { describe, expect, it } from "vitest";
import { RandomStream } from "../../../src/core/random/random-stream.js";
import { ClusterPassRates } from "../../../src/frontier/learnable/cluster-pass-rates.js";
import { LearnableFrontier, disagreement, type LearnableFrontierOptions } from "../../../src/frontier/learnable/learnable-frontier.js";
import { LearnableSettingsSchema } from "../../../src/frontier/learnable/learnable-settings.js";
import { PassRateWindowSettingsSchema } from "../../../src/frontier/learnable/pass-rate-window-settings.js";

/** A frontier over clusters `half` (3 of 8 solved: p̂ 0.4), `never` (0 of 8: p̂ 0.1), `unplayed` (p̂ 0.5). */
function frontier(settings = {}, options: Partial<LearnableFrontierOptions> = {}) {
  const passRates = new ClusterPassRates(PassRateWindowSettingsSchema.parse({}));
  passRates.record("half", { attempts: 8, successes: 3 });
  passRates.record("never", { attempts: 8, successes: 0 });
  return new LearnableFrontier({ random: new RandomStream("learnable-test"), passRates, settings: LearnableSettingsSchema.parse(settings), ...options });
}

const pickShares = (picks: readonly string[]) => Object.fromEntries(["half", "never", "unplayed"].map((cluster) => [cluster, picks.filter((pick) => pick === cluster).length / picks.length]));

describe("disagreement", () => {
  it("is the probability that a group of G attempts has both a pass and a fail", () => {
    expect(disagreement(0.5, 2)).toBeCloseTo(0.5, 12);
    expect(disagreement(0.4, 2)).toBeCloseTo(2 * 0.4 * 0.6, 12);
    // 1 − 0.1⁸ − 0.9⁸ = 1 − 1e-8 − 0.43046721.
    expect(disagreement(0.1, 8)).toBeCloseTo(1 - 1e-8 - 0.43046721, 12);
    expect(disagreement(0, 8)).toBe(0);
    expect(disagreement(1, 8)).toBe(0);
  });
});

describe("LearnableFrontier", () => {
  it("weights a cluster by the disagreement of a group at its p̂: groups of 2 by default, the environment's group size when given", () => {
    const pairs = frontier();
    expect(pairs.weight("half")).toBeCloseTo(2 * 0.4 * 0.6, 12);
    expect(pairs.weight("never")).toBeCloseTo(2 * 0.1 * 0.9, 12);
    expect(pairs.weight("unplayed")).toBe(0.5);
    // A group of 8 at p̂ 0.1 disagrees 57% of the time: the hard cluster weighs more than p(1 − p) gives it.
    const eights = frontier({}, { groupSize: 8 });
    expect(eights.weight("never")).toBeCloseTo(1 - 0.1 ** 8 - 0.9 ** 8, 12);
    expect(eights.weight("never") / eights.weight("half")).toBeGreaterThan(0.55);
  });

  it("multiplies the weight by the cluster's share of the data, as a fraction of the shares", () => {
    const shared = frontier({}, { shares: { half: 1, never: 3, unplayed: 0 } });
    expect(shared.share("never")).toBe(0.75);
    expect(shared.weight("half")).toBeCloseTo(0.25 * 0.48, 12);
    expect(shared.weight("never")).toBeCloseTo(0.75 * 0.18, 12);
    expect(shared.weight("unplayed")).toBe(0);
    expect(() => frontier({}, { shares: { half: -1 } })).toThrow(/clusters\.shares\.half/);
  });

  it("adds progressWeight × learning progress", () => {
    const passRates = new ClusterPassRates(PassRateWindowSettingsSchema.parse({}));
    passRates.record("rising", { attempts: 8, successes: 2 });
    passRates.record("rising", { attempts: 8, successes: 6 });
    const learnable = new LearnableFrontier({ random: new RandomStream("x"), passRates, settings: LearnableSettingsSchema.parse({ progressWeight: 0.5 }) });
    // p̂ = (8 + 1) / 18 = 0.5: 2 · 0.25, plus 0.5 × |6/8 − 2/8|.
    expect(learnable.weight("rising")).toBeCloseTo(0.5 + 0.5 * 0.5, 12);
  });

  it("draws in proportion to the weights without a floor, and mixes in the floor by share with it", () => {
    const total = 0.48 + 0.18 + 0.5;
    const weighted = frontier({ uniformFloor: 0 });
    const picks = Array.from({ length: 20_000 }, () => weighted.pick(["half", "never", "unplayed"]));
    expect(picks.every((decision) => decision.reason === "learnable-weighted")).toBe(true);
    const byWeight = pickShares(picks.map((decision) => decision.cluster));
    expect(byWeight.half).toBeCloseTo(0.48 / total, 2);
    expect(byWeight.never).toBeCloseTo(0.18 / total, 2);
    expect(byWeight.unplayed).toBeCloseTo(0.5 / total, 2);

    const floored = frontier();
    const flooredPicks = Array.from({ length: 20_000 }, () => floored.pick(["half", "never", "unplayed"]));
    const floorShare = flooredPicks.filter((decision) => decision.reason === "uniform-floor").length / flooredPicks.length;
    expect(floorShare).toBeCloseTo(0.2, 2);
    // P(never) = 0.2 · 1/3 + 0.8 · 0.18 / 1.16.
    expect(pickShares(flooredPicks.map((decision) => decision.cluster)).never).toBeCloseTo(0.2 / 3 + (0.8 * 0.18) / total, 2);

    // The floor alone draws by share: uniform over the data, not over the names.
    const byData = frontier({ uniformFloor: 1 }, { shares: { half: 1, never: 3, unplayed: 0 } });
    const dataPicks = pickShares(Array.from({ length: 20_000 }, () => byData.pick(["half", "never", "unplayed"]).cluster));
    expect(Math.abs((dataPicks.never as number) - 0.75)).toBeLessThan(0.015);
    expect(dataPicks.unplayed).toBe(0);
  });

  it("logs each pick's rule, weight, share and pass rate, and every candidate's weight", () => {
    const decision = frontier({ uniformFloor: 0 }, { groupSize: 8 }).pick(["never"]);
    expect(decision).toEqual({
      cluster: "never",
      reason: "learnable-weighted",
      weights: { never: expect.closeTo(1 - 0.1 ** 8 - 0.9 ** 8, 12) as number },
      message: "learnable: never — weight 0.570 of 0.570 (share 1.000, pass rate 0.100 over 8 recent attempt(s), groups of 8 disagree 0.570, progress 0.000)",
    });
    const floor = frontier({ uniformFloor: 1 }).pick(["half", "never"]);
    expect(floor.reason).toBe("uniform-floor");
    expect(floor.message).toMatch(/^uniform floor \(probability 1\): (half|never), by data share over 2 cluster\(s\)$/);
    expect(() => frontier().pick([])).toThrow(/candidates/);
  });
});
