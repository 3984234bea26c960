import { describe, expect, it } from "vitest";
import { proposerTargetGap, proposerTargetGapOfMetrics, type GapStepLine } from "../../../src/tasks/arithmetic/proposer-target-gap.js";

const line = (step: number, solveRate: number, passRateGap: number, validProposals = 0.75): GapStepLine => ({ step, solveRate, passRateGap, validProposals });

describe("proposerTargetGap", () => {
  it("compares the first and last 10% of steps, rounding the window up (hand-computed)", () => {
    // 11 steps → windows of 2: steps 1–2 and 10–11.
    const lines = Array.from({ length: 11 }, (_, index) => line(index + 1, 0.3, 0.3));
    lines[0] = line(1, 0.2, 0.4);
    lines[1] = line(2, 0.3, 0.36);
    lines[9] = line(10, 0.45, 0.3);
    lines[10] = line(11, 0.6, 0.2);
    const gap = proposerTargetGap(lines.reverse(), 0.5);
    expect(gap?.first.steps).toBe(2);
    expect(gap?.first.passRate).toBeCloseTo(0.25, 12);
    expect(gap?.first.gap).toBeCloseTo(0.25, 12);
    expect(gap?.first.perProblemGap).toBeCloseTo(0.38, 12);
    expect(gap?.last.passRate).toBeCloseTo(0.525, 12);
    expect(gap?.last.gap).toBeCloseTo(0.025, 12);
    expect(gap?.last.perProblemGap).toBeCloseTo(0.25, 12);
    expect(gap?.gapReduction).toBeCloseTo(0.225, 12);
    expect(gap?.perProblemGapReduction).toBeCloseTo(0.13, 12);
  });

  it("passes over steps without a valid proposal, whose solve rate reads 0, and is null when no step had one", () => {
    const gap = proposerTargetGap([line(1, 0, 0, 0), line(2, 0.4, 0.3), line(3, 0.5, 0.2)], 0.5);
    expect(gap?.first.passRate).toBeCloseTo(0.4, 12);
    expect(gap?.last.passRate).toBeCloseTo(0.5, 12);
    expect(proposerTargetGap([line(1, 0, 0, 0)], 0.5)).toBeNull();
  });

  it("reads the step lines of a metrics.jsonl and passes over evaluation lines", () => {
    const records = [{ step: 0, heldOutAccuracy: 0.3, n: 500 }, line(1, 0.2, 0.4), line(2, 0.6, 0.3), { step: 2, heldOutAccuracy: 0.4, n: 500 }];
    expect(proposerTargetGapOfMetrics(records, 0.5)).toEqual(proposerTargetGap([line(1, 0.2, 0.4), line(2, 0.6, 0.3)], 0.5));
  });
});
