import { mkdtemp, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { RUN_FILES } from "../../../src/arena/run-directory.js";
import type { GenerateResult } from "../../../src/core/schemas/generate-result.js";
import { loadEnvironment } from "../../../src/tasks/built-in-environments.js";
import { bundledArithmeticBase } from "../../../src/inference/model-files/bundled-models.js";
import { train } from "../../../src/training/loop/train.js";
import type { TrainingStepMetrics } from "../../../src/training/loop/training-step-metrics.js";

describe("selfplay train --env dream (real engine, ggml)", () => {
  it("opens the engine at the environment's context, grades every attempt in the sandbox, and says why it trained no record when the base solves nothing", async () => {
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
    // The environment asks for 2,048 tokens (its ~500-token prompts do not fit the base's own 256), so every
    // attempt reaches the sandbox and is graded; the arithmetic base writes no working JavaScript.
    expect(line!.rollouts).toEqual({ scored: 4, failed: 0, dropped: 0 });
    expect(line!.environment).toMatchObject({ attempts: 4, graded: 4, ungradable: 0 });
    const results = (await readFile(join(directory, RUN_FILES.rollouts), "utf8")).trim().split("\n").map((text) => JSON.parse(text) as GenerateResult);
    expect(results.map((result) => result.outcome.status)).toEqual(["scored", "scored", "scored", "scored"]);
    // A group of equal rewards has no advantage: nothing to train is said, not hidden.
    if (line!.trainedRecords === 0) expect(line!.skippedUpdate).toBe(true);
    expect(evaluations.map((evaluation) => [evaluation.step, evaluation.n])).toEqual([[0, 1], [1, 1]]);
  }, 120_000);
});
