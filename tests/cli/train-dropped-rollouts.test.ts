import { mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "../helpers/run-cli.js";

interface StepLine {
  step: number;
  rollouts: { scored: number; failed: number; dropped: number };
  failures: Record<string, Record<string, number>>;
  drops: Record<string, number>;
}

/**
 * The main job (`selfplay train`, no --env) at its smallest: its proposer writes held-out problems, which the
 * arithmetic environment drops by design. A healthy run says so on its step lines and never prints a failure.
 */
describe("selfplay train: the main job's dropped rollouts are no failures (real engine)", () => {
  it("10 steps of 8 proposals × 2 solvers: no FAILED line, the drops on the step lines, in metrics.jsonl and in rollouts.jsonl", async () => {
    const folder = await mkdtemp(join(tmpdir(), "selfplay-train-drops-"));
    const config = join(folder, "config.json");
    await writeFile(config, JSON.stringify({ environment: { proposals: 8, solvers: 2, evaluateProblems: 1 }, evaluateEvery: 0 }));
    const out = join(folder, "run");
    const { code, stderr } = await runCli(["train", "--config", config, "--steps", "10", "--out", out, "--device", "cpu"]);
    expect(code, stderr).toBe(0);
    expect(stderr).not.toMatch(/FAILED/);
    const steps = (await readFile(join(out, "metrics.jsonl"), "utf8"))
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as StepLine)
      .filter((line) => line.rollouts !== undefined);
    expect(steps).toHaveLength(10);
    const dropped = steps.reduce((sum, line) => sum + line.rollouts.dropped, 0);
    expect(dropped).toBeGreaterThan(0);
    for (const line of steps) {
      expect(line.rollouts.failed).toBe(0);
      expect(line.failures).toEqual({});
      expect(line.drops).toEqual(line.rollouts.dropped > 0 ? { HeldOutProblemError: line.rollouts.dropped } : {});
      const shown = new RegExp(`^step ${line.step}/10: .*; \\d+ records trained[^;]*, ${line.rollouts.dropped} rollouts? dropped \\(HeldOutProblemError ${line.rollouts.dropped}\\); `, "m");
      if (line.rollouts.dropped > 0) expect(stderr).toMatch(shown);
      else expect(stderr).not.toMatch(new RegExp(`^step ${line.step}/10: .*dropped \\(`, "m"));
    }
    // Each one is in rollouts.jsonl as what it is: a proposal dropped at scoring, with the held-out problem as its reason.
    const outcomes = (await readFile(join(out, "rollouts.jsonl"), "utf8")).trim().split("\n").map((line) => (JSON.parse(line) as { outcome: { status: string; reason?: { name: string } } }).outcome);
    expect(outcomes.filter((outcome) => outcome.status === "dropped")).toEqual(Array.from({ length: dropped }, () => ({ status: "dropped", stage: "score", reason: { name: "HeldOutProblemError", message: expect.stringMatching(/^"\d+[+-]\d+" is a held-out problem; it is dropped from training$/) } })));
    expect(outcomes.filter((outcome) => outcome.status === "failed")).toEqual([]);
    // About 20 s of CPU; the wall clock is longer where other suites share the cores.
  }, 240_000);
});
