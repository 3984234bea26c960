import { mkdtemp, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createExactMatchEnvironment } from "../../../src/tasks/exact-match/exact-match-environment.js";
import { createRandomModel } from "../../../src/inference/model-files/create-random-model.js";
import { createTrainer } from "../../../src/training/trainer/create-trainer.js";
import type { Trainer } from "../../../src/training/trainer/trainer.js";
import { TrainingDivergedError } from "../../../src/training/loop/errors/index.js";
import { train } from "../../../src/training/loop/train.js";

/**
 * A real tfjs trainer whose updates from `from` on report what trainOnBatch reports when every
 * minibatch's loss is non-finite (each step skipped, nothing changed): the loop's rule is under test.
 */
function divergingFrom(trainer: Trainer, from: number): Trainer {
  let updates = 0;
  return Object.assign(Object.create(trainer) as Trainer, {
    update: async (batch: Parameters<Trainer["update"]>[0]) => {
      const metrics = await trainer.update(batch);
      updates++;
      return updates < from ? metrics : { ...metrics, optimizerSteps: 0, skippedOptimizerSteps: Math.max(1, metrics.optimizerSteps + metrics.skippedOptimizerSteps) };
    },
  });
}

describe("train() when updates keep going non-finite (real engine)", () => {
  it("stops with TrainingDivergedError after maxNonFiniteUpdates updates in a row changed nothing, each step logged first", async () => {
    const folder = await mkdtemp(join(tmpdir(), "selfplay-diverged-"));
    const modelPath = (await createRandomModel({ path: join(folder, "tiny.gguf"), preset: "tiny", architecture: "llama", seed: 1 })).path;
    const environment = await createExactMatchEnvironment({ prompts: 2, groupSize: 2, maxTokens: 3, evaluateQuestions: 2 });
    const configuration = { steps: 6, evaluateEvery: 0, sequences: 4, maxNonFiniteUpdates: 2, trainer: { loss: { entropyCoefficient: 0.05 } } };
    const base = await createTrainer("tfjs", { modelPath, configuration: configuration.trainer, syncDirectory: join(folder, "run", "policies") });
    const run = train({ environment, modelPath, directory: join(folder, "run"), configuration, trainer: divergingFrom(base, 3) });
    await expect(run).rejects.toThrow(TrainingDivergedError);
    await expect(run).rejects.toThrow(/step 4: 2 updates in a row had a non-finite loss/);
    const steps = (await readFile(join(folder, "run", "metrics.jsonl"), "utf8"))
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as { step: number; optimizerSteps?: number })
      .filter((line) => line.optimizerSteps !== undefined);
    expect(steps.map((line) => [line.step, line.optimizerSteps])).toEqual([
      [1, 1],
      [2, 1],
      [3, 0],
      [4, 0],
    ]);
  });
});
