import { execFile } from "node:child_process";
import { resolve } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

describe("benchmarks/dialectic-calibration (quick mode)", () => {
  it("prints one JSON object: Brier scores of the predictor and of the base rate over recorded runs", async () => {
    const script = resolve(import.meta.dirname, "../../dist/benchmarks/dialectic-calibration.js");
    const { stdout } = await promisify(execFile)(process.execPath, [script, "--quick"]);
    const result = JSON.parse(stdout);
    expect(result).toMatchObject({ benchmark: "dialectic-calibration", runs: 80, predictionRound: 2, maxRounds: 6 });
    const { converged, oscillating, stalled, max_rounds: maxRounds } = result.states;
    expect(converged + oscillating + stalled + maxRounds).toBe(80);
    // The scripted population must reach every terminal state and every pattern, or it measures little.
    for (const count of [converged, oscillating, stalled, maxRounds]) expect(count).toBeGreaterThan(0);
    expect(Object.keys(result.patterns).sort()).toEqual(["flip-flop", "incremental-reversal", "perfection-loop"]);
    expect(result.evaluatedRuns).toBeGreaterThan(40);
    expect(result.evaluatedRuns).toBeLessThanOrEqual(80);
    expect(result.brier.baseRate).toBeCloseTo(result.baseRate * (1 - result.baseRate), 12);
    for (const value of [result.brier.predictor, result.brier.fittedCrossValidated]) {
      expect(value).toBeGreaterThanOrEqual(0);
      expect(value).toBeLessThanOrEqual(1);
    }
    expect(result.brierSkill.predictor).toBeCloseTo(1 - result.brier.predictor / result.brier.baseRate, 12);
    // The predictor must beat always forecasting the base rate.
    expect(result.brier.predictor).toBeLessThan(result.brier.baseRate);
    expect(result.reliability.reduce((total: number, bin: { runs: number }) => total + bin.runs, 0)).toBe(result.evaluatedRuns);
  });
});
