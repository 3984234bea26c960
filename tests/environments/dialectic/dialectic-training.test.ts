import * as tf from "@tensorflow/tfjs";
import { mkdtemp, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import type { GenerateResult } from "../../../src/core/schemas/generate-result.js";
import { createDialecticEnvironment, type DialecticEnvironmentOptions } from "../../../src/environments/dialectic/dialectic-environment.js";
import { createRandomModel } from "../../../src/inference/model-files/create-random-model.js";
import { train, type TrainOptions } from "../../../trainers/train/train.js";
import { findTrainingCheckpoint } from "../../../trainers/train/training-checkpoint-files.js";
import type { TrainingConfigurationInput } from "../../../trainers/train/training-configuration.js";
import { maxWeightDifference, metricsDifferences, metricsWithoutTimings } from "../../trainers/rl/run-comparison.js";

/** Stands in for SIGKILL: thrown from the log phase of step 2, after its metrics line, before its checkpoint. */
class KilledError extends Error {}

describe("the dialectic environment trained on the real engine (tfjs trainer, tiny random model, the policy as its own critic)", () => {
  let folder: string;
  let modelPath: string;
  // Short proposals and critiques whose strings the bias closes early: a random byte-level critic otherwise fills every bound.
  const options: DialecticEnvironmentOptions = { prompts: 2, groupSize: 3, loop: { maxRounds: 2 }, proposerMaxTokens: 12, criticMaxTokens: 400, criticLogitBias: { '"': 4 } };
  const configuration: TrainingConfigurationInput = {
    environment: options,
    sequences: 6,
    steps: 2,
    seed: 4,
    trainer: { algorithm: "grpo", epochs: 1, minibatchSize: 64, optimizer: { learningRate: 1e-3, weightDecay: 0 } },
  };
  const run = (rest: Omit<TrainOptions, "environment" | "modelPath">) => train({ environment: createDialecticEnvironment(options), modelPath, configuration, ...rest });

  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), "selfplay-dialectic-train-"));
    // The loop's prompts (a critique fed back to the proposer, the critic's instructions) run past the presets' 256 tokens of context.
    modelPath = (await createRandomModel({ path: join(folder, "tiny.gguf"), preset: "tiny", architecture: "llama", seed: 6, contextLength: 2048 })).path;
    await tf.setBackend("cpu");
  });

  it("trains the proposer on every step, its critiques never Steps, and a run killed in step 2 resumes to the same end", async () => {
    const uninterrupted = join(folder, "uninterrupted");
    await run({ directory: uninterrupted });
    const lines = await metricsWithoutTimings(join(uninterrupted, "metrics.jsonl"));
    expect(lines.map((line) => line.step)).toEqual([1, 2]);
    for (const line of lines) {
      expect(line.skippedUpdate).toBe(false);
      expect(line.trainedRecords).toBeGreaterThan(0);
      expect(line.rollouts).toEqual({ scored: 6, failed: 0 });
      expect(Object.keys(line.rewards as object)).toEqual(["proposer"]);
    }
    const results = (await readFile(join(uninterrupted, "rollouts.jsonl"), "utf8")).split("\n").filter((line) => line !== "").map((line) => JSON.parse(line) as GenerateResult);
    for (const result of results) {
      // One proposer Step per round; every critique a constrained judge call that validated.
      expect(result.rollout.steps.every((step) => step.roleId === "proposer")).toBe(true);
      expect(result.structuredOutputs.judge.calls).toBe(result.rollout.steps.length);
      expect(result.structuredOutputs.judge.failures).toBe(0);
    }
    expect(await maxWeightDifference(modelPath, join(uninterrupted, "final.gguf"))).toBeGreaterThan(1e-5);

    const killed = join(folder, "killed");
    const interrupted = run({
      directory: killed,
      onStep: (line) => {
        if (line.step === 2) throw new KilledError("killed during step 2");
      },
    });
    await expect(interrupted).rejects.toBeInstanceOf(KilledError);
    const { checkpoint } = await findTrainingCheckpoint(killed);
    expect(checkpoint?.step).toBe(1);
    await run({ directory: killed, resume: checkpoint! });
    expect(metricsDifferences(await metricsWithoutTimings(join(killed, "metrics.jsonl")), lines)).toEqual([]);
    expect(await maxWeightDifference(join(uninterrupted, "final.gguf"), join(killed, "final.gguf"))).toBeLessThanOrEqual(1e-6);
  });
});
