import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { readJsonl } from "../../../src/core/jsonl/read-jsonl.js";
import { difficultyReward } from "../../../src/core/rewards/difficulty-reward.js";
import { GenerateResultSchema } from "../../../src/core/schemas/generate-result.js";
import { createArithmeticEnvironment } from "../../../src/tasks/arithmetic/arithmetic-environment.js";
import { problemsOfSplit } from "../../../src/tasks/arithmetic/arithmetic-task.js";
import { runCli } from "../../helpers/run-cli.js";

const BASE_MODEL = resolve(import.meta.dirname, "..", "..", "..", "models", "selfplay-arithmetic-base.gguf");

describe("the arithmetic environment's clusters", () => {
  it("declares each cluster's share of the training problems, two-digit pairs 81% of them, where the store has one artifact a cluster", () => {
    const clusters = createArithmeticEnvironment().clusters!;
    const shares = clusters.shares!;
    expect(Object.keys(shares).sort()).toEqual([...clusters.names].sort());
    const training = problemsOfSplit("train");
    expect(Object.values(shares).reduce((sum, count) => sum + count, 0)).toBe(training.length);
    expect(shares["add-2x2-carry"]).toBe(training.filter((problem) => problem.cluster === "add-2x2-carry").length);
    const twoDigitPairs = Object.entries(shares).filter(([cluster]) => cluster.includes("-2x2-")).reduce((sum, [, count]) => sum + count, 0);
    expect(twoDigitPairs / training.length).toBeCloseTo(0.81, 2);
  });
});

describe("the arithmetic environment's repetition penalty, in a real run (the bundled base on the engine)", () => {
  it("takes weight × (n − 1)/n off each of n copies of a problem in a step, and logs the step's distinct problems", async () => {
    const folder = await mkdtemp(join(tmpdir(), "selfplay-repetition-"));
    const config = join(folder, "config.json");
    // 96 proposals over 15 clusters, 6 a cluster: the small ones (37 to 90 problems) get a problem twice.
    await writeFile(config, JSON.stringify({ steps: 2, seed: 1, evaluateEvery: 0, environment: { proposals: 96, solvers: 2, repetitionPenalty: 0.8, evaluateProblems: 8 } }));
    const run = join(folder, "run");
    const trained = await runCli(["train", "--model", BASE_MODEL, "--config", config, "--out", run, "--device", "cpu"]);
    expect(trained.code, trained.stderr).toBe(0);
    const results = (await readJsonl(join(run, "rollouts.jsonl"), GenerateResultSchema)).records;
    expect(results).toHaveLength(2 * 96);
    const steps = [results.slice(0, 96), results.slice(96)];
    let repeated = 0;
    for (const step of steps) {
      const valid = step.filter((result) => result.outcome.status === "scored" && result.rollout.artifacts.verdict === "valid");
      const copies = (problem: unknown) => valid.filter((other) => other.rollout.artifacts.problem === problem).length;
      for (const result of valid) {
        const n = copies(result.rollout.artifacts.problem);
        const passRate = Number(result.scoreDetails.passRate);
        const penalty = (0.8 * (n - 1)) / n;
        expect(result.rewards.proposer).toBeCloseTo(difficultyReward({ kind: "gaussian", target: 0.5, sigma: 0.2 }, passRate) - penalty, 12);
        if (n > 1) {
          repeated++;
          expect(result.scoreDetails).toMatchObject({ copiesInDraw: n });
        }
      }
    }
    // The base writes some problems more than once a step (`1+1` and the like).
    expect(repeated).toBeGreaterThan(0);
    const lines = (await readJsonl(join(run, "metrics.jsonl"), z.looseObject({ step: z.number(), environment: z.record(z.string(), z.number()).optional() }))).records;
    const distinct = lines.filter((line) => line.environment).map((line) => line.environment!.distinctProblems as number);
    expect(distinct).toHaveLength(2);
    expect(Math.min(...distinct)).toBeLessThan(1);
  }, 300_000);
});
