import { describe, expect, it } from "vitest";
import { stepsWithSnapshots, summariseStepThroughput, throughputRatios, type StepThroughputSample } from "../../benchmarks/summarise-step-throughput.js";

const sample = (step: number, fields: Partial<StepThroughputSample>): StepThroughputSample => ({
  step,
  rolloutSeconds: 1,
  updateSeconds: 1,
  wallSeconds: 1,
  moves: 0,
  completionTokens: 0,
  engineContexts: 1,
  rssMiB: 100,
  ...fields,
});

// A league of size 3 before steps 1–4: [0], [0, 1], [0, 1, 2], [1, 2, 3] — contexts 2, 3, 4, 4.
const league = [
  sample(1, { rolloutSeconds: 9, updateSeconds: 9, wallSeconds: 20, moves: 900, completionTokens: 1800, engineContexts: 2, rssMiB: 900 }),
  sample(2, { rolloutSeconds: 2, updateSeconds: 0.5, wallSeconds: 3, moves: 40, completionTokens: 80, engineContexts: 3, rssMiB: 210 }),
  sample(3, { rolloutSeconds: 4, updateSeconds: 1.5, wallSeconds: 6, moves: 50, completionTokens: 110, engineContexts: 4, rssMiB: 260 }),
  sample(4, { rolloutSeconds: 3, updateSeconds: 1, wallSeconds: 4.5, moves: 45, completionTokens: 95, engineContexts: 4, rssMiB: 250 }),
];

describe("the league-throughput benchmark's summary", () => {
  it("measures the steps whose league held at least 2 snapshots", () => {
    expect(stepsWithSnapshots(league, 2)).toEqual([2, 3, 4]);
    expect(stepsWithSnapshots(league, 3)).toEqual([3, 4]);
    expect(stepsWithSnapshots([sample(1, {}), sample(2, {})], 2)).toEqual([]);
  });

  it("averages the seconds per step, divides total moves and tokens by total rollout seconds, and keeps the largest contexts and RSS", () => {
    // Steps 2–4: rollout 2 + 4 + 3 = 9 s, update 3 s, wall 13.5 s; 135 moves, 285 tokens.
    expect(summariseStepThroughput(league, [2, 3, 4])).toEqual({
      steps: [2, 3, 4],
      rolloutSecondsPerStep: 3,
      updateSecondsPerStep: 1,
      wallSecondsPerStep: 4.5,
      completionTokensPerRolloutSecond: 285 / 9,
      movesPerRolloutSecond: 15,
      engineContexts: 4,
      peakStepRssMiB: 260,
    });
  });

  it("refuses a step it has no sample of, and no step at all", () => {
    expect(() => summariseStepThroughput(league, [2, 5])).toThrow("step 5 was not sampled (steps 1, 2, 3, 4)");
    expect(() => summariseStepThroughput(league, [])).toThrow("no step to summarise");
  });

  it("divides each numeric figure of the league by the current's, and leaves the rest out", () => {
    const current = summariseStepThroughput(
      league.map((entry) => ({ ...entry, rolloutSeconds: entry.rolloutSeconds / 2, engineContexts: 1 })),
      [2, 3, 4],
    );
    const ratio = throughputRatios(summariseStepThroughput(league, [2, 3, 4]), current);
    expect(ratio).toEqual({
      rolloutSecondsPerStep: 2,
      updateSecondsPerStep: 1,
      wallSecondsPerStep: 1,
      completionTokensPerRolloutSecond: 0.5,
      movesPerRolloutSecond: 0.5,
      engineContexts: 4,
      peakStepRssMiB: 1,
    });
  });
});
