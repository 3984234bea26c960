import * as tf from "@tensorflow/tfjs";
import { mkdtemp, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import type { GenerateResult } from "../../../src/core/schemas/generate-result.js";
import { createDialecticEnvironment, type DialecticEnvironmentOptions } from "../../../src/tasks/dialectic/dialectic-environment.js";
import { loadEnvironment } from "../../../src/tasks/built-in-environments.js";
import { createRandomModel } from "../../../src/inference/model-files/create-random-model.js";
import { expectTrainsAndResumes } from "../train-and-resume.js";

describe("the dialectic environment", () => {
  let folder: string;
  let modelPath: string;
  // Short proposals, and critiques whose strings the bias closes early: a random byte-level critic otherwise fills every bound.
  const options: DialecticEnvironmentOptions = { prompts: 2, groupSize: 3, loop: { maxRounds: 2 }, proposerMaxTokens: 12, criticMaxTokens: 400, criticLogitBias: { '"': 4 } };

  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), "selfplay-dialectic-train-"));
    // The loop's prompts (the critic's instructions, a critique fed back to the proposer) run past the presets' 256 tokens of context.
    modelPath = (await createRandomModel({ path: join(folder, "tiny.gguf"), preset: "tiny", architecture: "llama", seed: 6, contextLength: 2048 })).path;
    await tf.setBackend("cpu");
  });

  it("plans groups of loops per task with two rounds by default, and refuses a misspelt option or loop setting", async () => {
    const environment = createDialecticEnvironment();
    expect(environment.plan).toEqual([{ episodeType: "dialectic", count: 2, groupSize: 4 }]);
    expect(environment.episodes.options).toMatchObject({ loop: { maxRounds: 2, approvalThreshold: 0.85 } });
    await expect(loadEnvironment("dialectic", { task: ["x"] })).rejects.toThrow(/task.*tasks/);
    await expect(loadEnvironment("dialectic", { loop: { maxRound: 3 } })).rejects.toThrow(/environment\.loop\.maxRound/);
  });

  it("trains the proposer on every step of a tiny random model, its own critic, and a killed run resumes (real engine, tfjs)", async () => {
    const lines = await expectTrainsAndResumes({
      environment: () => createDialecticEnvironment(options),
      modelPath,
      folder,
      configuration: {
        environment: options,
        sequences: 6,
        steps: 2,
        seed: 4,
        trainer: { algorithm: "grpo", epochs: 1, minibatchSize: 64, optimizer: { learningRate: 1e-3, weightDecay: 0 } },
      },
      killAt: 2,
    });
    for (const line of lines) {
      expect(line.rollouts).toEqual({ scored: 6, failed: 0, dropped: 0 });
      expect(Object.keys(line.rewards)).toEqual(["proposer"]);
    }
    const text = await readFile(join(folder, "uninterrupted", "rollouts.jsonl"), "utf8");
    for (const result of text.split("\n").filter((line) => line !== "").map((line) => JSON.parse(line) as GenerateResult)) {
      // One proposer Step per round; every critique a constrained judge call that validated, never a Step.
      expect(result.rollout.steps.every((step) => step.roleId === "proposer")).toBe(true);
      expect(result.structuredOutputs.judge.calls).toBe(result.rollout.steps.length);
      expect(result.structuredOutputs.judge.failures).toBe(0);
    }
    // ~25 s alone; the 60 s default is too close when other engine tests share the two cores.
  }, 180_000);
});
