import { mkdtemp, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { bundledArithmeticBase } from "../../../src/inference/model-files/bundled-models.js";
import { createDatasetEnvironment } from "../../../src/tasks/dataset/dataset-environment.js";
import { train } from "../../../src/training/loop/train.js";

/** N+1= and N-1= for N in 10–99: the bundled base gets about a third right greedily. */
const rows = Array.from({ length: 90 }, (_, index) => index + 10).flatMap((n) => [
  { question: `${n}+1=`, answer: String(n + 1) },
  { question: `${n}-1=`, answer: String(n - 1) },
]);

describe("the dataset environment (real engine, bundled base)", () => {
  it("trains two steps on plain reward functions: records every step, each function's mean and std on every line, a held-out evaluation", async () => {
    const environment = await createDatasetEnvironment({
      data: rows,
      prompt: "question",
      rewards: [
        { name: "correct", fn: (completion, item) => (completion.trim() === item.answer ? 1 : 0) },
        { name: "close", weight: 0.5, fn: (completion, item) => (Number.isNaN(Number.parseInt(completion, 10)) ? null : Math.max(0, 1 - Math.abs(Number.parseInt(completion, 10) - Number(item.answer)) / 10)) },
      ],
      prompts: 8,
      maxTokens: 6,
    });
    const directory = await mkdtemp(join(tmpdir(), "selfplay-dataset-train-"));
    const result = await train({ environment, modelPath: bundledArithmeticBase(), directory, configuration: { steps: 2, seed: 0 } });
    const lines = (await readFile(join(directory, "metrics.jsonl"), "utf8")).trim().split("\n").map((line) => JSON.parse(line) as { step: number; trainedRecords?: number; environment?: Record<string, number> });
    const steps = lines.filter((line) => line.trainedRecords !== undefined);
    expect(steps.map((line) => line.step)).toEqual([1, 2]);
    for (const line of steps) {
      expect(line.trainedRecords).toBeGreaterThan(0);
      expect(Object.keys(line.environment ?? {})).toEqual(expect.arrayContaining(["correct.mean", "correct.std", "close.mean", "close.std"]));
    }
    expect(result.evaluations.map((evaluation) => evaluation.step)).toEqual([0, 2]);
    expect(result.evaluations[0]?.n).toBeGreaterThan(0);
  });
});
