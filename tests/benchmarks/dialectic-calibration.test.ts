import { execFile } from "node:child_process";
import { resolve } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { escapeFigures } from "../../benchmarks/dialectic-calibration.js";
import type { DialecticOutcome } from "../../src/dialectic/dialectic-outcome.js";
import type { DialecticRound } from "../../src/dialectic/dialectic-round.js";

/** A round that detected `pattern` and met it with `strategy`, or neither. */
function round(number: number, pattern: DialecticRound["pattern"] = null, strategy: DialecticRound["strategy"] = null): DialecticRound {
  const critique = { approved: false, score: 0.5, feedback: "", issues: [], suggestions: [] };
  return { round: number, proposal: `p${number}`, proposalHash: "h", temperature: 0.7, constraints: [], critique, critics: [{ critic: "critic", ...critique }], disagreement: 0, check: null, pattern, strategy };
}

function outcome(state: DialecticOutcome["state"], rounds: DialecticRound[]): DialecticOutcome {
  return { state, pattern: rounds.findLast((entry) => entry.pattern !== null)?.pattern ?? null, rounds, finalOutput: "p", finalScore: 0.5, finalRound: 1 };
}

describe("benchmarks/dialectic-calibration's escape figures", () => {
  it("judge each escape by the rounds after it: broken when no oscillation follows, recurred when one does, untried in the last round", () => {
    const figures = escapeFigures([
      // Raised, oscillated again, constraints injected, then quiet until the rounds ran out.
      outcome("max_rounds", [round(1), round(2), round(3, "flip-flop", "raise-temperature"), round(4, "flip-flop", "inject-constraints"), round(5), round(6)]),
      // Raised, then the third oscillation gives up.
      outcome("oscillating", [round(1), round(2), round(3, "perfection-loop", "raise-temperature"), round(4, "perfection-loop", "inject-constraints"), round(5, "flip-flop", "return-best")]),
      // A quiet round after the escape, then the oscillation again: it came back.
      outcome("max_rounds", [round(1), round(2), round(3, "flip-flop", "raise-temperature"), round(4), round(5, "flip-flop", "inject-constraints"), round(6)]),
      // An escape in the last round has nothing after it.
      outcome("max_rounds", [round(1), round(2, "incremental-reversal", "raise-temperature")]),
      outcome("stalled", [round(1), round(2), round(3)]),
    ]);
    expect(figures).toEqual({
      oscillatedRuns: 4,
      oscillations: 8,
      strategies: { "raise-temperature": { applied: 4, broken: 0, recurred: 3, untried: 1 }, "inject-constraints": { applied: 3, broken: 2, recurred: 1, untried: 0 } },
      returnedBest: 1,
      brokeShare: 2 / 6,
    });
    expect(escapeFigures([outcome("stalled", [round(1), round(2), round(3)])]).brokeShare).toBeNull();
  });
});

describe("benchmarks/dialectic-calibration (quick mode)", () => {
  it("prints one JSON object: Brier scores of the predictor and of the base rate over recorded runs", async () => {
    const script = resolve(import.meta.dirname, "../../dist/benchmarks/dialectic-calibration.js");
    const { stdout } = await promisify(execFile)(process.execPath, [script, "--quick"]);
    const result = JSON.parse(stdout);
    expect(result).toMatchObject({ benchmark: "dialectic-calibration", source: "scripted", runs: 80, failed: {}, predictionRound: 2, maxRounds: 6 });
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
    // Half the scripted flip-flops give way to an escape and half do not: both kinds of escape are tried, some break it.
    for (const tally of Object.values(result.escapes.strategies) as Array<{ applied: number; broken: number; recurred: number; untried: number }>) {
      expect(tally.applied).toBe(tally.broken + tally.recurred + tally.untried);
      expect(tally.applied).toBeGreaterThan(0);
    }
    expect(result.escapes.brokeShare).toBeGreaterThan(0);
    expect(result.escapes.brokeShare).toBeLessThan(1);
    expect(result.escapes.oscillatedRuns).toBeLessThanOrEqual(result.escapes.oscillations);
    expect(result.reliability.reduce((total: number, bin: { runs: number }) => total + bin.runs, 0)).toBe(result.evaluatedRuns);
  });
});
