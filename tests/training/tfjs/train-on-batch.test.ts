import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import seedrandom from "seedrandom";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { InvalidInputError } from "../../../src/core/errors/index.js";
import type { TrainingRecord } from "../../../src/core/schemas/training-record.js";
import { DEFAULT_SAMPLER } from "../../../src/core/schemas/sampler-settings.js";
import { LlamaInferenceClient } from "../../../src/inference/llama/llama-inference-client.js";
import { createRandomModel } from "../../../src/inference/model-files/create-random-model.js";
import { AdamW } from "../../../src/training/tfjs/optimizer/adamw.js";
import { Policy } from "../../../src/training/tfjs/policy/policy.js";
import { trainOnBatch } from "../../../src/training/tfjs/train-on-batch.js";
import { TrainerConfigurationSchema } from "../../../src/training/trainer/trainer-configuration.js";
import { scoreWithValues } from "../../../src/training/tfjs/value/score-with-values.js";
import { ValueHead } from "../../../src/training/tfjs/value/value-head.js";

describe("trainOnBatch on records sampled by the real engine", () => {
  let modelPath: string;
  let records: TrainingRecord[];

  beforeAll(async () => {
    const folder = await mkdtemp(join(tmpdir(), "selfplay-train-"));
    modelPath = (await createRandomModel({ path: join(folder, "tiny.gguf"), preset: "tiny", architecture: "llama", seed: 12 })).path;
    const client = await LlamaInferenceClient.create({ modelPath, sequences: 4 });
    const outputs = await client.generate(
      [0, 1, 2, 3].map((seed) => ({ messages: [{ role: "user" as const, content: "7+5=" }], sampler: { ...DEFAULT_SAMPLER, maxTokens: 6, seed }, constraint: null })),
    );
    await client.dispose();
    // Two good answers (+1) and two bad ones (−1) in one group.
    records = outputs.map((output, index) => ({
      rolloutId: `ep${index}`,
      stepIndex: 0,
      roleId: "solver",
      groupId: "g0",
      promptTokenIds: Array.from(output.promptTokenIds),
      completionTokenIds: Array.from(output.completionTokenIds),
      logprobs: Array.from(output.completionLogprobs),
      reward: index < 2 ? 1 : 0,
      advantage: index < 2 ? 1 : -1,
      sampler: { ...DEFAULT_SAMPLER, maxTokens: 6, seed: index },
      constrained: false,
      policyVersion: 0,
    }));
  });

  let policy: Policy;
  afterAll(() => policy?.dispose());

  it("raises the logprob of completions with positive advantage and lowers the others; engine and trainer agree before the update", async () => {
    policy = await Policy.load({ modelPath, backends: ["cpu"] });
    const sequences = records.map((record) => ({ promptTokenIds: record.promptTokenIds, completionTokenIds: record.completionTokenIds, temperature: 1 }));
    const before = (await policy.logprobsBatch(sequences)).map((values) => values.reduce((sum, value) => sum + value, 0));
    const configuration = TrainerConfigurationSchema.parse({ algorithm: "grpo", epochs: 2, minibatchSize: 2, optimizer: { learningRate: 1e-3, weightDecay: 0 } });
    const optimizer = new AdamW(configuration.optimizer);
    const random = seedrandom("minibatches");
    const first = await trainOnBatch(records, { policy, optimizer, configuration, random });
    expect(first.mismatchKl).toBeLessThan(1e-8);
    expect(first.importanceWeight).toBeCloseTo(1, 4);
    expect(first.optimizerSteps).toBe(4);
    expect(first.trainedRecords).toBe(4);
    expect(first.gradientNorm).toBeGreaterThan(0);
    // Entropy of softmax(logits / T) at the trained tokens: positive, at most ln(vocabulary).
    expect(first.entropy).toBeGreaterThan(0.1);
    expect(first.entropy).toBeLessThan(Math.log(policy.configuration.vocabularySize));
    expect(first.valueLoss).toBeNull();
    expect(first.skippedUpdate).toBe(false);
    for (let update = 0; update < 3; update++) await trainOnBatch(records, { policy, optimizer, configuration, random });
    const after = (await policy.logprobsBatch(sequences)).map((values) => values.reduce((sum, value) => sum + value, 0));
    expect(after[0]! - before[0]!).toBeGreaterThan(0.05);
    expect(after[1]! - before[1]!).toBeGreaterThan(0.05);
    expect(after[2]! - before[2]!).toBeLessThan(-0.05);
    expect(after[3]! - before[3]!).toBeLessThan(-0.05);
  });

  it("skips a step whose loss is not finite and leaves the weights as they were; leaves out constrained and greedy records", async () => {
    const sequences = records.map((record) => ({ promptTokenIds: record.promptTokenIds, completionTokenIds: record.completionTokenIds, temperature: 1 }));
    const before = await policy.logprobsBatch(sequences);
    const configuration = TrainerConfigurationSchema.parse({ algorithm: "reinforce", minibatchSize: 8 });
    const poisoned = [
      { ...records[0]!, advantage: Number.POSITIVE_INFINITY },
      { ...records[1]!, constrained: true },
      { ...records[2]!, sampler: { ...records[2]!.sampler, temperature: 0 } },
    ];
    const metrics = await trainOnBatch(poisoned, { policy, optimizer: new AdamW(configuration.optimizer), configuration, random: seedrandom("x") });
    expect(metrics.skippedOptimizerSteps).toBe(1);
    expect(metrics.optimizerSteps).toBe(0);
    expect(metrics.skippedRecords).toEqual({ constrained: 1, truncated: 0, greedy: 1, empty: 0, zeroAdvantage: 0 });
    const after = await policy.logprobsBatch(sequences);
    after.forEach((values, index) => expect(Array.from(values)).toEqual(Array.from(before[index]!)));
  });

  it("leaves zero-advantage records out of the update (counted), unless a KL or entropy term makes them count", async () => {
    const flat = records.map((record, index) => ({ ...record, advantage: index === 0 ? 1 : 0 }));
    const configuration = TrainerConfigurationSchema.parse({ algorithm: "grpo", minibatchSize: 8, optimizer: { learningRate: 1e-6 } });
    const dropped = await trainOnBatch(flat, { policy, optimizer: new AdamW(configuration.optimizer), configuration, random: seedrandom("z") });
    expect(dropped.trainedRecords).toBe(1);
    expect(dropped.skippedRecords.zeroAdvantage).toBe(3);
    const withEntropy = TrainerConfigurationSchema.parse({ ...configuration, loss: { entropyCoefficient: 0.01 } });
    const kept = await trainOnBatch(flat, { policy, optimizer: new AdamW(withEntropy.optimizer), configuration: withEntropy, random: seedrandom("z") });
    expect(kept.trainedRecords).toBe(4);
    expect(kept.skippedRecords.zeroAdvantage).toBe(0);
    const off = TrainerConfigurationSchema.parse({ ...configuration, dropZeroAdvantage: false });
    expect((await trainOnBatch(flat, { policy, optimizer: new AdamW(off.optimizer), configuration: off, random: seedrandom("z") })).trainedRecords).toBe(4);
  });

  it("skips a batch with no trainable record: logged as a skipped update, weights untouched", async () => {
    const sequences = records.map((record) => ({ promptTokenIds: record.promptTokenIds, completionTokenIds: record.completionTokenIds, temperature: 1 }));
    const before = await policy.logprobsBatch(sequences);
    const configuration = TrainerConfigurationSchema.parse({ algorithm: "grpo" });
    const onlyConstrained = records.map((record) => ({ ...record, constrained: true }));
    for (const batch of [[], onlyConstrained]) {
      const metrics = await trainOnBatch(batch, { policy, optimizer: new AdamW(configuration.optimizer), configuration, random: seedrandom("x") });
      expect(metrics.skippedUpdate).toBe(true);
      expect(metrics.optimizerSteps).toBe(0);
      expect(metrics.trainedRecords).toBe(0);
      expect(Object.values(metrics).every((value) => typeof value !== "number" || Number.isFinite(value))).toBe(true);
    }
    const after = await policy.logprobsBatch(sequences);
    after.forEach((values, index) => expect(Array.from(values)).toEqual(Array.from(before[index]!)));
  });

  it("ppo-critic: GAE from a value head; the value loss falls and good completions gain probability", async () => {
    const configuration = TrainerConfigurationSchema.parse({
      algorithm: "ppo-critic",
      epochs: 2,
      minibatchSize: 2,
      critic: { valueCoefficient: 1, valueClip: 1 },
      optimizer: { learningRate: 1e-3, weightDecay: 0 },
    });
    const optimizer = new AdamW(configuration.optimizer);
    const random = seedrandom("critic");
    await expect(trainOnBatch(records, { policy, optimizer, configuration, random })).rejects.toThrow(InvalidInputError);
    const valueHead = ValueHead.create({ embeddingLength: policy.configuration.embeddingLength });
    try {
      const sequences = records.map((record) => ({ promptTokenIds: record.promptTokenIds, completionTokenIds: record.completionTokenIds, temperature: 1 }));
      const before = (await policy.logprobsBatch(sequences)).map((values) => values.reduce((sum, value) => sum + value, 0));
      const updates = [];
      for (let update = 0; update < 4; update++) updates.push(await trainOnBatch(records, { policy, optimizer, configuration, valueHead, random }));
      expect(updates[0]!.valueLoss).toBeGreaterThan(0);
      expect(updates[3]!.valueLoss).toBeLessThan(updates[0]!.valueLoss!);
      expect(updates.every((metrics) => metrics.optimizerSteps === 4)).toBe(true);
      // The head learnt that the first two completions pay 1 and the others 0.
      const { values } = await scoreWithValues(policy, valueHead, sequences);
      const lastValue = (index: number) => values[index]![values[index]!.length - 1]!;
      expect(Math.min(lastValue(0), lastValue(1))).toBeGreaterThan(Math.max(lastValue(2), lastValue(3)));
      const after = (await policy.logprobsBatch(sequences)).map((values) => values.reduce((sum, value) => sum + value, 0));
      expect(after[0]! - before[0]!).toBeGreaterThan(0);
      expect(after[1]! - before[1]!).toBeGreaterThan(0);
      expect(after[2]! - before[2]!).toBeLessThan(0);
      expect(after[3]! - before[3]!).toBeLessThan(0);
    } finally {
      valueHead.dispose();
    }
  });
});
