import * as tf from "@tensorflow/tfjs";
import { appendFile, mkdtemp, readFile, readdir, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { HashedNgramFeaturiser } from "../../../src/frontier/prm/hashed-ngram-featuriser.js";
import { createRandomModel } from "../../../src/inference/model-files/create-random-model.js";
import { savePrm } from "../../../src/training/prm/save-prm.js";
import { trainPrm } from "../../../src/training/prm/train-prm.js";
import { createArithmeticEnvironment } from "../../../src/tasks/arithmetic/arithmetic-environment.js";
import { train, type TrainOptions } from "../../../src/training/loop/train.js";
import { findTrainingCheckpoint } from "../../../src/training/loop/training-checkpoint-files.js";
import type { TrainingConfigurationInput } from "../../../src/training/loop/training-configuration.js";
import { expectKilledDuringStep } from "./killed-during-step.js";
import { syntheticPrmExamples } from "../prm/synthetic-prm-examples.js";
import { maxWeightDifference, metricsDifferences, metricsWithoutTimings } from "../reports/run-comparison.js";


/** Every line of a rollouts.jsonl, parsed (torn lines are an error here). */
async function rolloutLines(path: string): Promise<unknown[]> {
  return (await readFile(path, "utf8")).split("\n").filter((line) => line !== "").map((line) => JSON.parse(line) as unknown);
}

describe("train resumed from a checkpoint (arithmetic environment, real engine, tfjs trainer)", () => {
  let folder: string;
  let modelPath: string;
  let configuration: TrainingConfigurationInput;
  const environment = createArithmeticEnvironment({ proposals: 4, solvers: 2, evaluateProblems: 8 });
  const runTraining = (options: Omit<TrainOptions, "environment">) => train({ environment, trainer: "tfjs", ...options });
  let prmPath: string;

  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), "selfplay-resume-"));
    modelPath = (await createRandomModel({ path: join(folder, "tiny.gguf"), preset: "tiny", architecture: "llama", seed: 1 })).path;
    // A random model's proposals are all invalid, so every advantage is 0: the entropy bonus and weight
    // decay make the weights move anyway, two epochs of two-record minibatches use the shuffling stream,
    // and the evaluation after step 2 puts one inside the resumed span.
    configuration = {
      environment: { proposals: 4, solvers: 2, evaluateProblems: 8 },
      sequences: 4,
      evaluateEvery: 2,
      steps: 3,
      seed: 3,
      trainer: { algorithm: "grpo", epochs: 2, minibatchSize: 2, loss: { entropyCoefficient: 0.05 }, optimizer: { learningRate: 1e-3, weightDecay: 0.01 } },
    };
    await tf.setBackend("cpu");
    const trained = await trainPrm(syntheticPrmExamples(40, "resume"), { featuriser: new HashedNgramFeaturiser({ dimensions: 32 }), configuration: { hiddenDimensions: 4, epochs: 1 } });
    prmPath = join(folder, "prm");
    await savePrm(prmPath, trained.network.weights(), trained.metadata);
    trained.network.dispose();
  });

  it("ends with the metrics and weights of the run that was never stopped", async () => {
    const uninterrupted = join(folder, "uninterrupted");
    await runTraining({ modelPath, directory: uninterrupted, configuration });

    const killed = join(folder, "killed");
    await expectKilledDuringStep(3, (onStep) => runTraining({ modelPath, directory: killed, configuration, onStep }));
    // What SIGKILL can leave: a line cut mid-write after the step-3 line, and a torn manifest of the checkpoint it was writing.
    await appendFile(join(killed, "metrics.jsonl"), '{"step":3,"reward":0.1');
    const manifest = await readFile(join(killed, "checkpoints", "step-2.json"), "utf8");
    await writeFile(join(killed, "checkpoints", "step-3.json"), manifest.slice(0, 100));

    // And a rollout line cut mid-write: the rollouts of step 3 are written again, once.
    await appendFile(join(killed, "rollouts.jsonl"), '{"rollout":{"id":"ep12"');
    const { checkpoint, ignored } = await findTrainingCheckpoint(killed);
    expect(checkpoint?.step).toBe(2);
    expect(ignored.map((entry) => entry.path)).toEqual([join(killed, "checkpoints", "step-3.json")]);
    expect(checkpoint?.trainer).toBe(join("checkpoints", "step-2.trainer"));
    expect((await readdir(join(killed, checkpoint!.trainer))).sort()).toEqual(["optimizer.gguf", "trainer.json", "weights.gguf"]);
    await runTraining({ modelPath, directory: killed, configuration, resume: checkpoint! });

    const expected = await metricsWithoutTimings(join(uninterrupted, "metrics.jsonl"));
    expect(expected.map((line) => [line.step, "heldOutAccuracy" in line])).toEqual([[0, true], [1, false], [2, false], [2, true], [3, false], [3, true]]);
    expect(metricsDifferences(await metricsWithoutTimings(join(killed, "metrics.jsonl")), expected)).toEqual([]);
    // One rollouts.jsonl line per proposal of every step, the same as the uninterrupted run's (the engine's logprobs to ~1e-15).
    const rollouts = await rolloutLines(join(uninterrupted, "rollouts.jsonl"));
    expect(rollouts).toHaveLength(3 * 4);
    expect(metricsDifferences(await rolloutLines(join(killed, "rollouts.jsonl")), rollouts)).toEqual([]);
    // The run trained: the weights moved, and the optimizer's moments shaped every step.
    expect(expected.filter((line) => "gradientNorm" in line).every((line) => (line.gradientNorm as number) > 0)).toBe(true);
    expect(await maxWeightDifference(modelPath, join(uninterrupted, "final.gguf"))).toBeGreaterThan(1e-4);
    expect(await maxWeightDifference(join(uninterrupted, "final.gguf"), join(killed, "final.gguf"))).toBeLessThanOrEqual(1e-6);
    // Only the newest checkpoint stays.
    expect((await readdir(join(killed, "checkpoints"))).sort()).toEqual(["step-3.json", "step-3.trainer"]);
  });

  it("resumes a run whose targets come from the PRM-weighted frontier with the tracker where it was", async () => {
    const frontierConfiguration = { ...configuration, frontier: { mode: "prm" as const, prmPath } };
    const uninterrupted = join(folder, "frontier-uninterrupted");
    await runTraining({ modelPath, directory: uninterrupted, configuration: frontierConfiguration });
    const killed = join(folder, "frontier-killed");
    await expectKilledDuringStep(3, (onStep) => runTraining({ modelPath, directory: killed, configuration: frontierConfiguration, onStep }));
    const { checkpoint } = await findTrainingCheckpoint(killed);
    expect(checkpoint?.step).toBe(2);
    expect(checkpoint?.frontier).toMatchObject({ tracker: { random: { i: expect.any(Number) } } });
    await runTraining({ modelPath, directory: killed, configuration: frontierConfiguration, resume: checkpoint! });

    const expected = await metricsWithoutTimings(join(uninterrupted, "metrics.jsonl"));
    // A random model writes no valid problem, so the tracker never leaves its fallbacks; the draws behind them are what a resume must keep.
    const reasons = expected.flatMap((line) => Object.keys((line.frontier as { reasons?: object } | undefined)?.reasons ?? {}));
    expect(new Set(reasons)).toEqual(new Set(["fallback:cold-start", "fallback:uniform-sample-roll"]));
    expect(metricsDifferences(await metricsWithoutTimings(join(killed, "metrics.jsonl")), expected)).toEqual([]);
    expect(metricsDifferences(await rolloutLines(join(killed, "rollouts.jsonl")), await rolloutLines(join(uninterrupted, "rollouts.jsonl")))).toEqual([]);
  });

  it("refuses to resume with another configuration or model, before touching the run", async () => {
    const directory = join(folder, "uninterrupted");
    const { checkpoint } = await findTrainingCheckpoint(directory);
    const before = await readFile(join(directory, "metrics.jsonl"), "utf8");
    await expect(runTraining({ modelPath, directory, configuration: { ...configuration, seed: 4 }, resume: checkpoint! })).rejects.toThrow(/differs in seed 3 → 4/);
    await expect(runTraining({ modelPath: join(folder, "other.gguf"), directory, configuration, resume: checkpoint! })).rejects.toThrow(/differs in model/);
    expect(await readFile(join(directory, "metrics.jsonl"), "utf8")).toBe(before);
  });
});
