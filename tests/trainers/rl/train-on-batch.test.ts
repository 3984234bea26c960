import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import seedrandom from "seedrandom";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TrainingRecord } from "../../../src/core/schemas/training-record.js";
import { DEFAULT_SAMPLER } from "../../../src/core/schemas/sampler-settings.js";
import { LlamaInferenceClient } from "../../../src/inference/llama/llama-inference-client.js";
import { createRandomModel } from "../../../src/inference/model-files/create-random-model.js";
import { AdamW } from "../../../trainers/optimizer/adamw.js";
import { Policy } from "../../../trainers/policy/policy.js";
import { trainOnBatch } from "../../../trainers/rl/train-on-batch.js";
import { TrainerConfigurationSchema } from "../../../trainers/rl/trainer-configuration.js";

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
    expect(metrics.skippedRecords).toEqual({ constrained: 1, greedy: 1, empty: 0 });
    const after = await policy.logprobsBatch(sequences);
    after.forEach((values, index) => expect(Array.from(values)).toEqual(Array.from(before[index]!)));
  });
});
