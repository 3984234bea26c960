import { describe, expect, it } from "vitest";
import { PrmMetricsSchema, prmMetrics } from "../../../src/frontier/metrics/prm-metrics.js";

describe("prmMetrics", () => {
  it("reports AUC, Brier, ECE and n of the probabilities, and the per-cluster prior's AUC", () => {
    const training = [
      { cluster: "easy", label: 1 },
      { cluster: "easy", label: 1 },
      { cluster: "hard", label: 0 },
    ];
    const evaluated = [
      { cluster: "easy", label: 1 },
      { cluster: "easy", label: 0 },
      { cluster: "hard", label: 1 },
      { cluster: "hard", label: 0 },
    ];
    const metrics = prmMetrics([0.9, 0.2, 0.7, 0.1], evaluated, training);
    expect(metrics.auc).toBe(1);
    expect(metrics.brier).toBeCloseTo((0.01 + 0.04 + 0.09 + 0.01) / 4, 12);
    expect(metrics.n).toBe(4);
    // Prior scores 1, 1, 0, 0: pairs (easy₁ vs easy₀) tie ½, (easy₁ vs hard₀) 1, (hard₁ vs easy₀) 0, (hard₁ vs hard₀) tie ½ → 2/4.
    expect(metrics.baselineAuc).toBe(0.5);
    expect(PrmMetricsSchema.parse(metrics)).toEqual(metrics);
  });

  it("writes undefined metrics as null", () => {
    expect(prmMetrics([], [], [])).toEqual({ auc: null, brier: null, ece: null, n: 0, baselineAuc: null });
  });
});
