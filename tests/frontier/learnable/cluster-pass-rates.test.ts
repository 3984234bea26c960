import { describe, expect, it } from "vitest";
import { ClusterPassRates } from "../../../src/frontier/learnable/cluster-pass-rates.js";
import { PassRateWindowSettingsSchema } from "../../../src/frontier/learnable/pass-rate-window-settings.js";

const settings = (input = {}) => PassRateWindowSettingsSchema.parse(input);

describe("ClusterPassRates", () => {
  it("gives an unplayed cluster the prior, and smooths a played one: (s + prior·k) / (n + k)", () => {
    const rates = new ClusterPassRates(settings());
    expect(rates.estimate("a")).toBe(0.5);
    rates.record("a", { attempts: 8, successes: 3 });
    expect(rates.estimate("a")).toBeCloseTo(4 / 10, 12);
    rates.record("b", { attempts: 8, successes: 0 });
    expect(rates.estimate("b")).toBeCloseTo(1 / 10, 12);
    const strongPrior = new ClusterPassRates(settings({ priorPassRate: 0.2, priorAttempts: 5 }));
    strongPrior.record("a", { attempts: 5, successes: 5 });
    expect(strongPrior.estimate("a")).toBeCloseTo((5 + 1) / 10, 12);
  });

  it("forgets the steps that fall out of the window, ignores empty steps and caps successes at the attempts", () => {
    const rates = new ClusterPassRates(settings({ window: 2 }));
    rates.record("a", { attempts: 10, successes: 10 });
    rates.record("a", { attempts: 4, successes: 0 });
    rates.record("a", { attempts: 0, successes: 0 });
    rates.record("a", { attempts: 6, successes: 9 });
    expect(rates.attempts("a")).toBe(10);
    expect(rates.estimate("a")).toBeCloseTo((0 + 6 + 1) / 12, 12);
  });

  it("measures learning progress as |newer half − older half| of the window, 0 before two steps", () => {
    const rates = new ClusterPassRates(settings({ window: 4 }));
    rates.record("a", { attempts: 8, successes: 2 });
    expect(rates.progress("a")).toBe(0);
    rates.record("a", { attempts: 8, successes: 6 });
    expect(rates.progress("a")).toBeCloseTo(0.5, 12);
    rates.record("a", { attempts: 4, successes: 4 });
    // Odd window: the middle step goes to the newer half: (6 + 4) / 12 − 2 / 8.
    expect(rates.progress("a")).toBeCloseTo(10 / 12 - 0.25, 12);
  });

  it("restores from its snapshot to the same estimates", () => {
    const rates = new ClusterPassRates(settings({ window: 2 }));
    rates.record("a", { attempts: 8, successes: 3 });
    rates.record("a", { attempts: 8, successes: 5 });
    const restored = new ClusterPassRates(settings({ window: 2 }), JSON.parse(JSON.stringify(rates.snapshot())));
    restored.record("a", { attempts: 8, successes: 8 });
    rates.record("a", { attempts: 8, successes: 8 });
    expect(restored.snapshot()).toEqual(rates.snapshot());
    expect(restored.estimate("a")).toBe(rates.estimate("a"));
  });

  it("refuses a prior of 0 or 1 (an estimate that could reach them) and a pseudo-count of 0", () => {
    expect(() => settings({ priorPassRate: 0 })).toThrow();
    expect(() => settings({ priorPassRate: 1 })).toThrow();
    expect(() => settings({ priorAttempts: 0 })).toThrow();
  });
});
