import { describe, expect, it } from "vitest";
import { compareTrainingRuns } from "../../../src/training/reports/compare-training-runs.js";
import type { TrainingRun } from "../../../src/training/reports/read-training-run.js";

const run = (frontier: "uniform" | "prm", seed: number, evaluations: [number, number, number][]): TrainingRun => ({
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
    expect(comparison.modes.uniform).toEqual({ runs: 2, seeds: [1, 2], meanAccuracy: 0.33, meanGain: expect.closeTo(0.03, 12) });
    expect(comparison.modes.prm).toEqual({ runs: 1, seeds: [1], meanAccuracy: 0.42, meanGain: expect.closeTo(0.12, 12) });
  });

  it("takes a budget, and reports a run with no evaluation by then as such", () => {
    const comparison = compareTrainingRuns(runs, 10.5);
    expect(comparison.runs.map((entry) => entry.atBudget?.heldOutAccuracy ?? null)).toEqual([0.3, null, null]);
    expect(comparison.modes.prm).toMatchObject({ meanAccuracy: null, meanGain: null });
    expect(() => compareTrainingRuns([])).toThrow(/at least one selfplay train run folder/);
  });
});
