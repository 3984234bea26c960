import { describe, expect, it } from "vitest";
import { compareTrainingRuns } from "../../../src/training/reports/compare-training-runs.js";
import type { TrainingRun } from "../../../src/training/reports/read-training-run.js";

const run = (frontier: "uniform" | "prm" | "learnable", seed: number, evaluations: [number, number, number][]): TrainingRun => ({
  directory: `runs/${frontier}-${seed}`,
  frontier,
  seed,
  steps: 30,
  evaluations: evaluations.map(([step, heldOutAccuracy, elapsedSeconds]) => ({ step, heldOutAccuracy, elapsedSeconds })),
  taskSummary: null,
});

describe("compareTrainingRuns", () => {
  const runs = [
    run("uniform", 1, [[0, 0.3, 10], [10, 0.34, 300], [20, 0.36, 610]]),
    run("uniform", 2, [[0, 0.3, 11], [10, 0.32, 290], [20, 0.35, 650]]),
    run("prm", 1, [[0, 0.3, 12], [10, 0.4, 320], [20, 0.42, 600]]),
  ];

  it("compares at the shortest run's last evaluation, each run at its last evaluation by then (hand-computed)", () => {
    const comparison = compareTrainingRuns(runs);
    expect(comparison.budgetSeconds).toBe(600);
    expect(comparison.runs.map((entry) => [entry.directory, entry.atBudget?.step, entry.atBudget?.heldOutAccuracy, entry.startAccuracy])).toEqual([
      ["runs/uniform-1", 10, 0.34, 0.3],
      ["runs/uniform-2", 10, 0.32, 0.3],
      ["runs/prm-1", 20, 0.42, 0.3],
    ]);
    // Gains 0.04 and 0.02: s = 0.0141421, t(0.975, 1) = 12.7062047, half = 12.7062047 · 0.0141421 / √2 = 0.127062.
    expect(comparison.modes.uniform).toEqual({ runs: 2, seeds: [1, 2], meanAccuracy: 0.33, meanGain: expect.closeTo(0.03, 12), gainInterval95: [expect.closeTo(0.03 - 0.127062, 5), expect.closeTo(0.03 + 0.127062, 5)] });
    expect(comparison.modes.prm).toEqual({ runs: 1, seeds: [1], meanAccuracy: 0.42, meanGain: expect.closeTo(0.12, 12), gainInterval95: null });
  });

  it("takes a budget, and reports a run with no evaluation by then as such", () => {
    const comparison = compareTrainingRuns(runs, 10.5);
    expect(comparison.runs.map((entry) => entry.atBudget?.heldOutAccuracy ?? null)).toEqual([0.3, null, null]);
    expect(comparison.modes.prm).toMatchObject({ meanAccuracy: null, meanGain: null });
    expect(() => compareTrainingRuns([])).toThrow(/at least one selfplay train run folder/);
  });

  it("pairs each mode with uniform by seed: the differences, their mean and its 95% Student's t interval", () => {
    const at = (frontier: "uniform" | "learnable", seed: number, accuracy: number) => run(frontier, seed, [[0, 0.3, 1], [10, accuracy, 100]]);
    const comparison = compareTrainingRuns([at("uniform", 1, 0.5), at("uniform", 2, 0.52), at("uniform", 3, 0.48), at("learnable", 3, 0.52), at("learnable", 1, 0.53), at("learnable", 2, 0.52), at("learnable", 4, 0.6)]);
    const [pair] = comparison.paired;
    // Seed 4 has no uniform run: left out. Differences 0.03, 0, 0.04; mean 0.07/3; s = 0.0208167; t(0.975, 2) = 4.302653.
    expect(comparison.paired).toHaveLength(1);
    expect(pair).toMatchObject({ mode: "learnable", baseline: "uniform", seeds: [1, 2, 3] });
    expect(pair!.differences.map((value) => Number(value.toFixed(12)))).toEqual([0.03, 0, 0.04]);
    expect(pair!.meanDifference).toBeCloseTo(0.07 / 3, 12);
    const half = (4.302653 * Math.sqrt(((0.03 - 0.07 / 3) ** 2 + (0.07 / 3) ** 2 + (0.04 - 0.07 / 3) ** 2) / 2)) / Math.sqrt(3);
    expect(pair!.interval95![0]).toBeCloseTo(0.07 / 3 - half, 6);
    expect(pair!.interval95![1]).toBeCloseTo(0.07 / 3 + half, 6);
    // One shared seed: a difference, no interval; the first runs' modes alone have no pair.
    expect(compareTrainingRuns([at("uniform", 1, 0.5), at("learnable", 1, 0.53)]).paired[0]).toMatchObject({ seeds: [1], interval95: null });
    expect(compareTrainingRuns(runs.slice(0, 2)).paired).toEqual([]);
  });
});
