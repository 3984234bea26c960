import * as tf from "@tensorflow/tfjs";
import { mkdtemp, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import type { GenerateResult } from "../../../src/core/schemas/generate-result.js";
import { createDebateEnvironment, type DebateEnvironmentOptions } from "../../../src/environments/debate/debate-environment.js";
import { createRandomModel } from "../../../src/inference/model-files/create-random-model.js";
import { train, type TrainOptions } from "../../../trainers/train/train.js";
import { findTrainingCheckpoint } from "../../../trainers/train/training-checkpoint-files.js";
import type { TrainingConfigurationInput } from "../../../trainers/train/training-configuration.js";
import { maxWeightDifference, metricsDifferences, metricsWithoutTimings } from "../../trainers/rl/run-comparison.js";

/** Stands in for SIGKILL: thrown from the log phase of step 2, after its metrics line, before its checkpoint. */
class KilledError extends Error {}

async function rollouts(directory: string): Promise<GenerateResult[]> {
  return (await readFile(join(directory, "rollouts.jsonl"), "utf8")).split("\n").filter((line) => line !== "").map((line) => JSON.parse(line) as GenerateResult);
}

describe("the debate environment trained on the real engine (tfjs trainer, tiny random model, the policy as its own judge)", () => {
  let folder: string;
  let modelPath: string;
  const options: DebateEnvironmentOptions = { prompts: 2, groupSize: 4, rounds: 1, maxTokens: 12 };
  const configuration: TrainingConfigurationInput = {
    environment: options,
    sequences: 8,
    steps: 3,
    seed: 5,
    trainer: { algorithm: "grpo", epochs: 1, minibatchSize: 64, optimizer: { learningRate: 1e-3, weightDecay: 0 } },
  };
  const run = (environmentOptions: DebateEnvironmentOptions, rest: Omit<TrainOptions, "environment" | "modelPath">) =>
    train({ environment: createDebateEnvironment(environmentOptions), modelPath, ...rest });

  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), "selfplay-debate-train-"));
    modelPath = (await createRandomModel({ path: join(folder, "tiny.gguf"), preset: "tiny", architecture: "llama", seed: 2 })).path;
    await tf.setBackend("cpu");
  });

  it("trains both debaters on every step (a verdict enum makes the rewards ±1), and a run killed in step 2 resumes to the same end", async () => {
    const uninterrupted = join(folder, "uninterrupted");
    await run(options, { directory: uninterrupted, configuration });
    const lines = await metricsWithoutTimings(join(uninterrupted, "metrics.jsonl"));
    expect(lines.map((line) => line.step)).toEqual([1, 2, 3]);
    for (const line of lines) {
      expect(line.skippedUpdate).toBe(false);
      expect(line.trainedRecords).toBeGreaterThan(0);
      expect(line.rollouts).toEqual({ scored: 8, failed: 0 });
      // Zero-sum: one side's mean reward is the other's negated.
      const rewards = line.rewards as Record<string, number>;
      expect(rewards.aff).toBeCloseTo(-(rewards.neg as number), 12);
    }
    for (const result of await rollouts(uninterrupted)) {
      expect(Math.abs(result.rewards.aff as number)).toBe(1);
      expect(result.judgeCalls).toBe(1);
      expect(result.structuredOutputs.judge).toMatchObject({ calls: 1, firstTryValid: 1, failures: 0 });
      expect(result.rollout.steps.map((step) => step.roleId)).toEqual(["aff", "neg"]);
    }
    expect(await maxWeightDifference(modelPath, join(uninterrupted, "final.gguf"))).toBeGreaterThan(1e-5);

    const killed = join(folder, "killed");
    const interrupted = run(options, {
      directory: killed,
      configuration,
      onStep: (line) => {
        if (line.step === 2) throw new KilledError("killed during step 2");
      },
    });
    await expect(interrupted).rejects.toBeInstanceOf(KilledError);
    const { checkpoint } = await findTrainingCheckpoint(killed);
    expect(checkpoint?.step).toBe(1);
    await run(options, { directory: killed, configuration, resume: checkpoint! });
    expect(metricsDifferences(await metricsWithoutTimings(join(killed, "metrics.jsonl")), lines)).toEqual([]);
    expect(await maxWeightDifference(join(uninterrupted, "final.gguf"), join(killed, "final.gguf"))).toBeLessThanOrEqual(1e-6);
  });

  it("plays a frozen copy of the base as neg (opponent: base): only aff is trained, neg's Steps stay at policy version 0", async () => {
    const directory = join(folder, "frozen-opponent");
    const frozenOptions = { ...options, opponent: "base" };
    await run(frozenOptions, { directory, configuration: { ...configuration, environment: frozenOptions, steps: 2 } });
    const lines = await metricsWithoutTimings(join(directory, "metrics.jsonl"));
    const results = await rollouts(directory);
    expect(results).toHaveLength(16);
    for (const [index, line] of lines.entries()) {
      expect(line.skippedUpdate).toBe(false);
      // One aff Step per debate is all there is to train on.
      expect((line.trainedRecords as number) + (line.skippedRecords as { zeroAdvantage: number }).zeroAdvantage).toBe(8);
      expect(line.trainedRecords).toBeGreaterThan(0);
      for (const result of results.slice(8 * index, 8 * index + 8)) {
        expect(result.rollout.steps.map((step) => [step.roleId, step.policyVersion])).toEqual([
          ["aff", index],
          ["neg", 0],
        ]);
      }
    }
    expect(await maxWeightDifference(modelPath, join(directory, "final.gguf"))).toBeGreaterThan(1e-5);
  });

  it("refuses a frozen opponent with pool workers, before creating the run", async () => {
    const directory = join(folder, "pooled");
    await expect(run({ ...options, opponent: "base" }, { directory, configuration, pool: { workers: 1 } })).rejects.toThrow(/pool\.workers.*--workers 0/);
    await expect(readFile(join(directory, "metrics.jsonl"))).rejects.toThrow(/ENOENT/);
  });
});
