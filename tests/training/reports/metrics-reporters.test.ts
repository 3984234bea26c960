import { mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { openMetricsReporters } from "../../../src/training/reports/metrics-reporters.js";
import { scalarsOf } from "../../../src/training/reports/scalars-of.js";

describe("scalarsOf", () => {
  it("flattens a metrics line to parent/child tags, booleans as 0/1, leaving strings and arrays out", () => {
    expect(scalarsOf({ step: 3, rewards: { solver: 0.5, proposer: -1 }, skippedUpdate: false, frontier: { messages: ["x"], reasons: { uniform: 4 } }, entropy: null, name: "x" })).toEqual({
      step: 3,
      "rewards/solver": 0.5,
      "rewards/proposer": -1,
      skippedUpdate: 0,
      "frontier/reasons/uniform": 4,
    });
  });
});

describe("the metrics reporters", () => {
  it("write metrics.csv with the first row's columns, appending on reopen (a resume), and TensorBoard events only when asked", () => {
    const directory = mkdtempSync(join(tmpdir(), "selfplay-reporters-"));
    const first = openMetricsReporters(directory, ["jsonl", "csv"]);
    first.step(1, { step: 1, rewards: { solver: 0.25 }, trainedReward: 0.5 });
    const resumed = openMetricsReporters(directory, ["csv"]);
    resumed.step(2, { step: 2, rewards: { solver: 0.75 }, trainedReward: 0.5, newField: 9 });
    expect(readFileSync(join(directory, "metrics.csv"), "utf8")).toBe("step,rewards/solver,trainedReward\n1,0.25,0.5\n2,0.75,0.5\n");
    expect(readdirSync(directory)).toEqual(["metrics.csv"]);
    openMetricsReporters(directory, ["tensorboard"]).evaluation(2, 0.5);
    expect(readdirSync(join(directory, "tensorboard"))).toHaveLength(1);
  });
});
