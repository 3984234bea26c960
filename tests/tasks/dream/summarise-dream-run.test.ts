import { describe, expect, it } from "vitest";
import { summariseDreamRun } from "../../../src/tasks/dream/summarise-dream-run.js";

const step = (environment: Record<string, number>) => ({ step: 1, rewards: { "dream-solver": 0 }, rollouts: { scored: 4, failed: 0, dropped: 0 }, environment });

describe("the dream environment's run summary", () => {
  it("sums the step lines' attempts: the pass rate is over the run's graded attempts, not a mean of steps", () => {
    const lines = [
      step({ attempts: 4, graded: 4, passed: 1, passRate: 0.25, ungradable: 0, failed: 0 }),
      step({ attempts: 4, graded: 2, passed: 0, passRate: 0, ungradable: 2, failed: 0 }),
      step({ attempts: 4, graded: 3, passed: 2, passRate: 2 / 3, ungradable: 0, failed: 1 }),
      // An evaluation line and another environment's step line are passed over.
      { step: 3, heldOutAccuracy: 0, n: 12, elapsedSeconds: 40 },
      step({ solveRate: 1 }),
    ];
    // 3 of 9 graded: 1/3, where the steps' mean pass rate would say 0.31.
    expect(summariseDreamRun(lines)).toEqual({ dream: { steps: 3, attempts: 12, graded: 9, passed: 3, passRate: 1 / 3, ungradable: 2, failed: 1 } });
    expect(summariseDreamRun([]).dream).toEqual({ steps: 0, attempts: 0, graded: 0, passed: 0, passRate: 0, ungradable: 0, failed: 0 });
  });
});
