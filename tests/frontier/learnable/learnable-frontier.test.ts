import { describe, expect, it } from "vitest";
import { RandomStream } from "../../../src/core/random/random-stream.js";
import { ClusterPassRates } from "../../../src/frontier/learnable/cluster-pass-rates.js";
import { LearnableFrontier } from "../../../src/frontier/learnable/learnable-frontier.js";
import { LearnableSettingsSchema } from "../../../src/frontier/learnable/learnable-settings.js";
import { PassRateWindowSettingsSchema } from "../../../src/frontier/learnable/pass-rate-window-settings.js";

/** A frontier over clusters `half` (3 of 8 solved: p̂ 0.4), `never` (0 of 8: p̂ 0.1), `unplayed` (p̂ 0.5). */
function frontier(settings = {}) {
  const passRates = new ClusterPassRates(PassRateWindowSettingsSchema.parse({}));
  passRates.record("half", { attempts: 8, successes: 3 });
  passRates.record("never", { attempts: 8, successes: 0 });
  return new LearnableFrontier({ random: new RandomStream("learnable-test"), passRates, settings: LearnableSettingsSchema.parse(settings) });
}

const shares = (picks: readonly string[]) => Object.fromEntries(["half", "never", "unplayed"].map((cluster) => [cluster, picks.filter((pick) => pick === cluster).length / picks.length]));

describe("LearnableFrontier", () => {
  it("weights a cluster by p̂(1 − p̂): 0.24 at 3 of 8, 0.09 at 0 of 8, the prior's 0.25 unplayed", () => {
    const learnable = frontier();
    expect(learnable.weight("half")).toBeCloseTo(0.4 * 0.6, 12);
    expect(learnable.weight("never")).toBeCloseTo(0.1 * 0.9, 12);
    expect(learnable.weight("unplayed")).toBe(0.25);
  });

  it("adds progressWeight × learning progress", () => {
    const passRates = new ClusterPassRates(PassRateWindowSettingsSchema.parse({}));
    passRates.record("rising", { attempts: 8, successes: 2 });
    passRates.record("rising", { attempts: 8, successes: 6 });
    const learnable = new LearnableFrontier({ random: new RandomStream("x"), passRates, settings: LearnableSettingsSchema.parse({ progressWeight: 0.5 }) });
    // p̂ = (8 + 1) / 18 = 0.5: 0.25, plus 0.5 × |6/8 − 2/8|.
    expect(learnable.weight("rising")).toBeCloseTo(0.25 + 0.5 * 0.5, 12);
  });

  it("draws in proportion to the weights without a floor, and mixes in the uniform floor with it", () => {
    const total = 0.24 + 0.09 + 0.25;
    const weighted = frontier({ uniformFloor: 0 });
    const picks = Array.from({ length: 20_000 }, () => weighted.pick(["half", "never", "unplayed"]));
    expect(picks.every((decision) => decision.reason === "learnable-weighted")).toBe(true);
    const byWeight = shares(picks.map((decision) => decision.cluster));
    expect(byWeight.half).toBeCloseTo(0.24 / total, 2);
    expect(byWeight.never).toBeCloseTo(0.09 / total, 2);
    expect(byWeight.unplayed).toBeCloseTo(0.25 / total, 2);

    const floored = frontier();
    const flooredPicks = Array.from({ length: 20_000 }, () => floored.pick(["half", "never", "unplayed"]));
    const floorShare = flooredPicks.filter((decision) => decision.reason === "uniform-floor").length / flooredPicks.length;
    expect(floorShare).toBeCloseTo(0.2, 2);
    // P(never) = 0.2 · 1/3 + 0.8 · 0.09 / 0.58.
    expect(shares(flooredPicks.map((decision) => decision.cluster)).never).toBeCloseTo(0.2 / 3 + (0.8 * 0.09) / total, 2);
  });

  it("logs each pick's rule, weight and pass rate, and every candidate's weight", () => {
    const decision = frontier({ uniformFloor: 0 }).pick(["never"]);
    expect(decision).toEqual({
      cluster: "never",
      reason: "learnable-weighted",
      weights: { never: expect.closeTo(0.09, 12) as number },
      message: "learnable: never — weight 0.090 of 0.090 (pass rate 0.100 over 8 recent attempt(s), progress 0.000)",
    });
    const floor = frontier({ uniformFloor: 1 }).pick(["half", "never"]);
    expect(floor.reason).toBe("uniform-floor");
    expect(floor.message).toMatch(/^uniform floor \(probability 1\): (half|never), uniform over 2 cluster\(s\)$/);
    expect(() => frontier().pick([])).toThrow(/candidates/);
  });
});
