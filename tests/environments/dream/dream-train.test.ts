import { mkdtemp, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { RUN_FILES } from "../../../src/arena/run-directory.js";
import type { GenerateResult } from "../../../src/core/schemas/generate-result.js";
import { loadEnvironment } from "../../../src/environments/load-environment.js";
import { bundledArithmeticBase } from "../../../src/inference/model-files/bundled-models.js";
import { train } from "../../../trainers/train/train.js";
import type { TrainingStepMetrics } from "../../../trainers/train/training-step-metrics.js";

describe("selfplay train --env dream (real engine, ggml)", () => {
  it("runs a step on the bundled base and says why it trained no record: the solver's prompt does not fit the base's 256-token context", async () => {
    const options = { prompts: 2, groupSize: 2, clusters: ["algorithms"], maxTokens: 32, evaluateChallengesPerCluster: 1 };
    const directory = join(await mkdtemp(join(tmpdir(), "selfplay-dream-train-")), "run");
    const lines: TrainingStepMetrics[] = [];
    const { evaluations } = await train({
      environment: await loadEnvironment("dream", options),
      modelPath: bundledArithmeticBase(),
      directory,
      trainer: "ggml",
      configuration: { environment: options, steps: 1, seed: 1, sequences: 4, trainer: { optimizer: { learningRate: 1e-3 } } },
      onStep: (line) => lines.push(line),
    });
    expect(lines).toHaveLength(1);
    const [line] = lines;
    // The train loop builds its engine at the model's own context (no contextSize in the Environment contract):
    // a ~500-token dream prompt is refused, every rollout fails, and the update is skipped — not a crash.
    expect(line!.skippedUpdate).toBe(true);
    expect(line!.trainedRecords).toBe(0);
    expect(line!.rollouts).toEqual({ scored: 0, failed: 4 });
    expect(line!.environment).toMatchObject({ attempts: 4, graded: 0, ungradable: 0, failed: 4 });
    const results = (await readFile(join(directory, RUN_FILES.rollouts), "utf8")).trim().split("\n").map((text) => JSON.parse(text) as GenerateResult);
    for (const result of results) {
      expect(result.outcome).toMatchObject({ status: "failed", stage: "rollout" });
      if (result.outcome.status === "failed") expect(result.outcome.error.message).toMatch(/shorter than the context of 256 tokens/);
    }
    // The held-out prompts are refused alike: nothing was attempted, so n is 0 rather than a false 0% pass rate over 1.
    expect(evaluations.map((evaluation) => [evaluation.step, evaluation.n])).toEqual([[0, 0], [1, 0]]);
  }, 60_000);
});
