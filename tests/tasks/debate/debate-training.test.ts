import * as tf from "@tensorflow/tfjs";
import { mkdtemp, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import type { GenerateResult } from "../../../src/core/schemas/generate-result.js";
import { createDebateEnvironment, type DebateEnvironmentOptions } from "../../../src/tasks/debate/debate-environment.js";
import { loadEnvironment } from "../../../src/tasks/built-in-environments.js";
import { createRandomModel } from "../../../src/inference/model-files/create-random-model.js";
import { train } from "../../../src/training/loop/train.js";
import type { TrainingConfigurationInput } from "../../../src/training/loop/training-configuration.js";
import { maxWeightDifference, metricsWithoutTimings } from "../../training/reports/run-comparison.js";
import { expectTrainsAndResumes } from "../train-and-resume.js";

async function rollouts(directory: string): Promise<GenerateResult[]> {
  return (await readFile(join(directory, "rollouts.jsonl"), "utf8")).split("\n").filter((line) => line !== "").map((line) => JSON.parse(line) as GenerateResult);
}

describe("the debate environment", () => {
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

  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), "selfplay-debate-train-"));
    // 512 tokens of context: the judge's prompt (the motion, the stances and two 12-token turns of random bytes, up to 3 bytes
    // a token once decoded) outgrows the tiny preset's 256.
    modelPath = (await createRandomModel({ path: join(folder, "tiny.gguf"), preset: "tiny", architecture: "llama", seed: 2, contextLength: 512 })).path;
    await tf.setBackend("cpu");
  });

  it("plans groups of debates per motion, binds neg to a frozen policy with opponent, and refuses a misspelt option", async () => {
    const environment = createDebateEnvironment({ prompts: 3, groupSize: 2, motions: ["A.", "B."] });
    expect(environment.plan).toEqual([{ episodeType: "debate", count: 3, groupSize: 2 }]);
    expect(environment.frozenRoles).toBeUndefined();
    expect(environment.stores.debate?.size).toBe(2);
    expect(createDebateEnvironment({ opponent: "base" }).frozenRoles).toEqual({ neg: "base" });
    await expect(loadEnvironment("debate", { oponent: "base" })).rejects.toThrow(/oponent.*opponent/);
    await expect(loadEnvironment("debate", { groupSize: 1 })).rejects.toThrow(/environment\.groupSize/);
  });

  it("trains both debaters on every step of a tiny random model, its own judge (a verdict enum makes the rewards ±1, a flip with the order a 0 tie), and a killed run resumes (real engine, tfjs)", async () => {
    const lines = await expectTrainsAndResumes({ environment: () => createDebateEnvironment(options), modelPath, folder, configuration, killAt: 2 });
    expect(lines.map((line) => line.step)).toEqual([1, 2, 3]);
    const results = await rollouts(join(folder, "uninterrupted"));
    for (const [index, line] of lines.entries()) {
      expect(line.rollouts).toEqual({ scored: 8, failed: 0, dropped: 0 });
      // Zero-sum: one side's mean reward is the other's negated.
      expect(line.rewards.aff).toBeCloseTo(-(line.rewards.neg as number), 12);
      // The step's position consistency is its debates' share of verdicts that survived the swap.
      const held = results.slice(8 * index, 8 * index + 8).filter((result) => result.scoreDetails.positionConsistent === true).length;
      expect(line.judging).toEqual({ positionConsistency: held / 8, swappedVerdicts: 8, judgeAgreement: null, comparedVerdicts: 0 });
    }
    for (const result of results) {
      // A verdict that flipped with the order is a tie: no reward either way.
      const tie = result.scoreDetails.positionConsistent === false;
      expect(result.scoreDetails.verdict === "tie").toBe(tie);
      expect(Math.abs(result.rewards.aff as number)).toBe(tie ? 0 : 1);
      // Two judge calls per debate (both orders), constrained to the enum: valid at the first try, and never Steps.
      expect(result.judgeCalls).toBe(2);
      expect(result.structuredOutputs.judge).toMatchObject({ calls: 2, firstTryValid: 2, failures: 0 });
      expect(result.rollout.steps.map((step) => step.roleId)).toEqual(["aff", "neg"]);
    }
    // ~7 s alone; the 60 s default is too close when other engine tests share the two cores.
  }, 180_000);

  it("plays a frozen copy of the base as neg (opponent: base): only aff is trained, neg's Steps stay at policy version 0", async () => {
    const directory = join(folder, "frozen-opponent");
    const frozenOptions = { ...options, opponent: "base" };
    await train({ environment: createDebateEnvironment(frozenOptions), modelPath, directory, configuration: { ...configuration, environment: frozenOptions, steps: 2 } });
    const lines = await metricsWithoutTimings(join(directory, "metrics.jsonl"));
    const results = await rollouts(directory);
    expect(results).toHaveLength(16);
    for (const [index, line] of lines.entries()) {
      expect(line.skippedUpdate).toBe(false);
      expect(line.trainedRecords).toBeGreaterThan(0);
      // One aff Step per debate is all there is to train on.
      expect((line.trainedRecords as number) + (line.skippedRecords as { zeroAdvantage: number }).zeroAdvantage).toBe(8);
      for (const result of results.slice(8 * index, 8 * index + 8)) {
        expect(result.rollout.steps.map((step) => [step.roleId, step.policyVersion])).toEqual([
          ["aff", index],
          ["neg", 0],
        ]);
      }
    }
    expect(await maxWeightDifference(modelPath, join(directory, "final.gguf"))).toBeGreaterThan(1e-5);
  });

  it("plays a checkpoint as neg: a LoRA adapter over the base, served beside the learner", async () => {
    const adapterRun = join(folder, "adapter");
    const { finalModel } = await train({ environment: createDebateEnvironment(options), modelPath, directory: adapterRun, configuration: { ...configuration, steps: 1, weights: "lora" } });
    expect(finalModel).toBe(join(adapterRun, "final.lora.gguf"));
    const directory = join(folder, "adapter-opponent");
    const adapterOptions = { ...options, opponent: finalModel };
    await train({ environment: createDebateEnvironment(adapterOptions), modelPath, directory, configuration: { ...configuration, environment: adapterOptions, steps: 1 } });
    const [line] = await metricsWithoutTimings(join(directory, "metrics.jsonl"));
    expect(line).toMatchObject({ skippedUpdate: false, rollouts: { scored: 8, failed: 0 } });
    for (const result of await rollouts(directory)) expect(result.rollout.steps.map((step) => step.roleId)).toEqual(["aff", "neg"]);
  });

  it("refuses a frozen opponent with pool workers, before creating the run", async () => {
    const directory = join(folder, "pooled");
    await expect(
      train({ environment: createDebateEnvironment({ ...options, opponent: "base" }), modelPath, directory, configuration, pool: { workers: 1 } }),
    ).rejects.toThrow(/pool\.workers.*--workers 0/);
    await expect(readFile(join(directory, "metrics.jsonl"))).rejects.toThrow(/ENOENT/);
  });
});
