import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { expect } from "vitest";
import type { Environment } from "../../src/environments/environment.js";
import type { TrainerBackend } from "../../src/training/trainer/trainer-checkpoint.js";
import { train } from "../../src/training/loop/train.js";
import { findTrainingCheckpoint } from "../../src/training/loop/training-checkpoint-files.js";
import type { TrainingConfigurationInput } from "../../src/training/loop/training-configuration.js";
import type { TrainingStepMetrics } from "../../src/training/loop/training-step-metrics.js";
import { expectKilledDuringStep } from "../training/loop/killed-during-step.js";
import { maxWeightDifference, metricsDifferences, metricsWithoutTimings } from "../training/reports/run-comparison.js";

export interface TrainAndResumeOptions {
  /** Makes the environment afresh for each run (it may be async: a dataset environment reads its data). */
  environment: () => Environment | Promise<Environment>;
  modelPath: string;
  folder: string;
  configuration: TrainingConfigurationInput;
  /** The step during which the second run is killed. */
  killAt: number;
  /** The trainer backend of both runs; default train()'s. */
  trainer?: TrainerBackend;
}

/**
 * Trains `environment` on the engine twice: once straight through, once
 * killed during step `killAt` and resumed from its checkpoint. Asserts every
 * step trained records, the weights moved, and the resumed run ends with the
 * metrics and weights of the uninterrupted one. Returns the step lines.
 */
export async function expectTrainsAndResumes(options: TrainAndResumeOptions): Promise<TrainingStepMetrics[]> {
  const { modelPath, folder, configuration, killAt } = options;
  const trainer = options.trainer === undefined ? {} : { trainer: options.trainer };
  const uninterrupted = join(folder, "uninterrupted");
  const steps: TrainingStepMetrics[] = [];
  const result = await train({ environment: await options.environment(), modelPath, directory: uninterrupted, configuration, ...trainer, onStep: (line) => steps.push(line) });
  for (const line of steps) {
    expect(line.skippedUpdate, `step ${line.step}`).toBe(false);
    expect(line.trainedRecords, `step ${line.step}`).toBeGreaterThan(0);
  }
  expect(await maxWeightDifference(modelPath, result.finalModel)).toBeGreaterThan(1e-6);

  const killed = join(folder, "killed");
  const environment = await options.environment();
  await expectKilledDuringStep(killAt, (onStep) => train({ environment, modelPath, directory: killed, configuration, ...trainer, onStep }));
  const { checkpoint } = await findTrainingCheckpoint(killed);
  expect(checkpoint?.step).toBe(killAt - 1);
  const resumed = await train({ environment: await options.environment(), modelPath, directory: killed, configuration, ...trainer, resume: checkpoint! });
  expect(metricsDifferences(await metricsWithoutTimings(join(killed, "metrics.jsonl")), await metricsWithoutTimings(join(uninterrupted, "metrics.jsonl")))).toEqual([]);
  const rollouts = async (directory: string) => (await readFile(join(directory, "rollouts.jsonl"), "utf8")).trim().split("\n").map((line) => JSON.parse(line) as unknown);
  expect(metricsDifferences(await rollouts(killed), await rollouts(uninterrupted))).toEqual([]);
  expect(await maxWeightDifference(result.finalModel, resumed.finalModel)).toBeLessThanOrEqual(1e-6);
  return steps;
}
