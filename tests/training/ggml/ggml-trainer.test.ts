import { mkdtemp, readFile, rm } from "node:fs/promises";
import { availableParallelism, tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { InvalidInputError } from "../../../src/core/errors/index.js";
import type { TrainingBatch, TrainingRecord } from "../../../src/core/schemas/training-record.js";
import { DEFAULT_SAMPLER } from "../../../src/core/schemas/sampler-settings.js";
import { GgufReader } from "../../../src/gguf/gguf-reader.js";
import { LlamaInferenceClient } from "../../../src/inference/llama/llama-inference-client.js";
import { createRandomModel } from "../../../src/inference/model-files/create-random-model.js";
import { GgmlPolicy } from "../../../src/training/ggml/ggml-policy.js";
import { GgmlTrainer } from "../../../src/training/ggml/ggml-trainer.js";
import type { TrainerOptions } from "../../../src/training/trainer/trainer-options.js";
import { TfjsTrainer } from "../../../src/training/tfjs/tfjs-trainer.js";
import { maxWeightDifference, metricsDifferences } from "../reports/run-comparison.js";

type TrainerLoraOptionsInput = NonNullable<TrainerOptions["lora"]>;

let folder: string;
let modelPath: string;
let batch: TrainingBatch;
const CONFIGURATION = { algorithm: "grpo", epochs: 2, minibatchSize: 2, optimizer: { learningRate: 1e-3, weightDecay: 0 } } as const;

beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), "selfplay-ggml-trainer-"));
  modelPath = (await createRandomModel({ path: join(folder, "tiny.gguf"), preset: "tiny", architecture: "llama", seed: 12 })).path;
  const client = await LlamaInferenceClient.create({ modelPath, sequences: 4 });
  const outputs = await client.generate(
    [0, 1, 2, 3].map((seed) => ({ messages: [{ role: "user" as const, content: "7+5=" }], sampler: { ...DEFAULT_SAMPLER, maxTokens: 6, seed }, constraint: null })),
  );
  await client.dispose();
  // Two good answers (+1) and two bad ones (−1) in one group.
  const records: TrainingRecord[] = outputs.map((output, index) => ({
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
  batch = { batchIndex: 0, records, creditAssigner: "test", stats: { rollouts: 4, failedRollouts: 0, skippedSteps: 0, completionTokens: 24 } };
});
afterAll(async () => {
  await rm(folder, { recursive: true, force: true });
});

const sequencesOf = (records: readonly TrainingRecord[]) =>
  records.map((record) => ({ promptTokenIds: record.promptTokenIds, completionTokenIds: record.completionTokenIds, temperature: record.sampler.temperature }));
const withoutTimings = (metrics: object) => Object.fromEntries(Object.entries(metrics).filter(([key]) => key !== "elapsedMs"));
const sums = (values: Float64Array[]) => values.map((sequence) => sequence.reduce((sum, value) => sum + value, 0));

describe("GgmlTrainer", () => {
  it("reports the same update metrics as the tfjs trainer on the same batch, and moves logprobs the advantages' way", async () => {
    const ggml = await GgmlTrainer.create({ modelPath, syncDirectory: join(folder, "sync-a"), configuration: CONFIGURATION, seed: 4 });
    const tfjs = await TfjsTrainer.create({ modelPath, syncDirectory: join(folder, "sync-b"), configuration: CONFIGURATION, seed: 4 });
    try {
      const ours = await ggml.update(batch);
      const theirs = await tfjs.update(batch);
      expect(ours).toMatchObject({ trainedRecords: 4, optimizerSteps: 4, skippedOptimizerSteps: 0, skippedUpdate: false, valueLoss: null });
      for (const key of ["trainedReward", "responseLength", "zeroAdvantageGroupShare", "trainedTokens"] as const) expect(ours[key], key).toBe(theirs[key]);
      for (const key of ["entropy", "importanceWeight", "gradientNorm", "clipFraction"] as const) {
        expect(Math.abs((ours[key] as number) - (theirs[key] as number)), key).toBeLessThan(2e-3 * Math.max(1, Math.abs(theirs[key] as number)));
      }
      expect(ours.mismatchKl).toBeLessThan(1e-8);
      expect(ggml.updates).toBe(1);

      const reread = await GgmlPolicy.load({ modelPath: await ggml.exportFinal(join(folder, "after.gguf")) });
      const before = await GgmlPolicy.load({ modelPath });
      const after = sums(await reread.logprobsBatch(sequencesOf(batch.records)));
      const start = sums(await before.logprobsBatch(sequencesOf(batch.records)));
      await reread.dispose();
      await before.dispose();
      expect(after[0]! - start[0]!).toBeGreaterThan(0);
      expect(after[1]! - start[1]!).toBeGreaterThan(0);
      expect(after[2]! - start[2]!).toBeLessThan(0);
      expect(after[3]! - start[3]!).toBeLessThan(0);
    } finally {
      await ggml.dispose();
      await tfjs.dispose();
    }
  });

  it("restores its checkpoint exactly: the next update gives the same weights as an uninterrupted run", async () => {
    const uninterrupted = await GgmlTrainer.create({ modelPath, syncDirectory: join(folder, "sync-c"), configuration: CONFIGURATION, seed: 9 });
    const resumed = await GgmlTrainer.create({ modelPath, syncDirectory: join(folder, "sync-d"), configuration: CONFIGURATION, seed: 9 });
    try {
      await uninterrupted.update(batch);
      const checkpoint = join(folder, "checkpoint");
      await uninterrupted.saveCheckpoint(checkpoint);
      await resumed.restoreCheckpoint(checkpoint);
      expect(resumed.updates).toBe(1);
      await uninterrupted.update(batch);
      await resumed.update(batch);
      const a = await GgufReader.open(await uninterrupted.exportFinal(join(folder, "a.gguf")));
      const b = await GgufReader.open(await resumed.exportFinal(join(folder, "b.gguf")));
      try {
        for (const tensor of a.tensors) expect(await b.readTensor(tensor.name), tensor.name).toEqual(await a.readTensor(tensor.name));
      } finally {
        await a.close();
        await b.close();
      }
    } finally {
      await uninterrupted.dispose();
      await resumed.dispose();
    }
  });

  it("writes checkpoints the tfjs trainer restores, moments in its layout", async () => {
    const ggml = await GgmlTrainer.create({ modelPath, syncDirectory: join(folder, "sync-e"), configuration: CONFIGURATION, seed: 2 });
    const tfjs = await TfjsTrainer.create({ modelPath, syncDirectory: join(folder, "sync-f"), configuration: CONFIGURATION, seed: 2 });
    try {
      await ggml.update(batch);
      await ggml.saveCheckpoint(join(folder, "from-ggml"));
      await tfjs.restoreCheckpoint(join(folder, "from-ggml"));
      await tfjs.saveCheckpoint(join(folder, "from-tfjs"));
      const written = await GgufReader.open(join(folder, "from-ggml", "optimizer.gguf"));
      const rewritten = await GgufReader.open(join(folder, "from-tfjs", "optimizer.gguf"));
      try {
        expect(rewritten.metadata.get("selfplay.adamw.steps")).toEqual(written.metadata.get("selfplay.adamw.steps"));
        for (const tensor of written.tensors) {
          expect(rewritten.findTensor(tensor.name)?.dims, tensor.name).toEqual(tensor.dims);
          expect(await rewritten.readTensor(tensor.name), tensor.name).toEqual(await written.readTensor(tensor.name));
        }
      } finally {
        await written.close();
        await rewritten.close();
      }
      // And back: the ggml trainer restores what tfjs wrote.
      await ggml.restoreCheckpoint(join(folder, "from-tfjs"));
      expect(ggml.updates).toBe(1);
    } finally {
      await ggml.dispose();
      await tfjs.dispose();
    }
  });

  it("syncs a full model the engine serves, with the trainer's logprobs", async () => {
    const trainer = await GgmlTrainer.create({ modelPath, syncDirectory: join(folder, "sync-g"), configuration: CONFIGURATION, seed: 1 });
    const client = await LlamaInferenceClient.create({ modelPath, sequences: 1, mode: "exact" });
    try {
      await trainer.update(batch);
      const sync = await trainer.sync(client, 1);
      expect(sync).toMatchObject({ format: "full", version: 1, path: join(folder, "sync-g", "policy-v1.gguf") });
      const [output] = await client.generate([
        { messages: [{ role: "user", content: "7+5=" }], sampler: { ...DEFAULT_SAMPLER, maxTokens: 8, seed: 3 }, constraint: null },
      ]);
      const synced = await GgmlPolicy.load({ modelPath: sync.path });
      const [logprobs] = await synced.logprobsBatch([{ promptTokenIds: output!.promptTokenIds, completionTokenIds: output!.completionTokenIds, temperature: 1 }]);
      await synced.dispose();
      logprobs!.forEach((value, index) => expect(Math.abs(value - output!.completionLogprobs[index]!)).toBeLessThan(1e-5));
    } finally {
      await client.dispose();
      await trainer.dispose();
    }
  });

  it("updates the same with cpuKernels \"portable\" as with \"auto\": one step's metrics within 1e-5 relative", async () => {
    // One minibatch, one AdamW step: its metrics are taken before the step moves anything (the next step's would also
    // carry Adam's ±α moves of weights whose gradient is rounding noise, where the two paths' signs may differ).
    const configuration = { ...CONFIGURATION, epochs: 1, minibatchSize: 4 };
    const trainerWith = (cpuKernels: "auto" | "portable") =>
      GgmlTrainer.create({ modelPath, syncDirectory: join(folder, `sync-${cpuKernels}`), configuration, seed: 4, cpuKernels });
    const automatic = await trainerWith("auto");
    const portable = await trainerWith("portable");
    try {
      const ours = await automatic.update(batch);
      const theirs = await portable.update(batch);
      expect(ours).toMatchObject({ trainedRecords: 4, optimizerSteps: 1, skippedOptimizerSteps: 0 });
      for (const key of ["entropy", "importanceWeight", "gradientNorm", "mismatchKl"] as const) {
        expect(Math.abs((ours[key] as number) - (theirs[key] as number)), key).toBeLessThanOrEqual(1e-5 * Math.max(1e-3, Math.abs(theirs[key] as number)));
      }
    } finally {
      await automatic.dispose();
      await portable.dispose();
    }
  });

  it("updates on `configuration.threads` CPU threads, else every core, records the count in trainer.json, and trains the same on 1 and 2", async () => {
    const configuration = { ...CONFIGURATION, epochs: 1, minibatchSize: 4 };
    const one = await GgmlTrainer.create({ modelPath, syncDirectory: join(folder, "sync-threads-1"), configuration: { ...configuration, threads: 1 }, seed: 4 });
    const two = await GgmlTrainer.create({ modelPath, syncDirectory: join(folder, "sync-threads-2"), configuration: { ...configuration, threads: 2 }, seed: 4 });
    const unset = await GgmlTrainer.create({ modelPath, syncDirectory: join(folder, "sync-threads-default"), configuration, seed: 4 });
    try {
      expect([one.threads, two.threads, unset.threads]).toEqual([1, 2, availableParallelism()]);
      const [ours, theirs] = [await one.update(batch), await two.update(batch)];
      expect(ours).toMatchObject({ trainedRecords: 4, optimizerSteps: 1 });
      expect(metricsDifferences(withoutTimings(ours), withoutTimings(theirs))).toEqual([]);
      expect(await maxWeightDifference(await one.exportFinal(join(folder, "threads-1.gguf")), await two.exportFinal(join(folder, "threads-2.gguf")))).toBeLessThanOrEqual(1e-6);
      await two.saveCheckpoint(join(folder, "threads-checkpoint"));
      const manifest = JSON.parse(await readFile(join(folder, "threads-checkpoint", "trainer.json"), "utf8")) as { threads?: number };
      expect(manifest.threads).toBe(2);
    } finally {
      await one.dispose();
      await two.dispose();
      await unset.dispose();
    }
  });

  it("refuses a thread count out of range, naming the field", async () => {
    await expect(GgmlTrainer.create({ modelPath, syncDirectory: join(folder, "sync-threads-bad"), configuration: { threads: 0 } })).rejects.toThrowError(
      /^configuration\.threads: got 0; expected/,
    );
  });

  it("refuses ppo-critic, saying which backend does it", async () => {
    const refusal = GgmlTrainer.create({ modelPath, syncDirectory: join(folder, "sync-h"), configuration: { algorithm: "ppo-critic" } });
    await expect(refusal).rejects.toThrow(InvalidInputError);
    await expect(refusal).rejects.toThrow(/--trainer tfjs/);
  });
});

describe("GgmlTrainer with LoRA", () => {
  const LORA: TrainerLoraOptionsInput = { rank: 4, alpha: 8, targets: ["attn_q", "attn_v", "ffn_up"] };

  it("trains an adapter, syncs it to the engine, which then scores as the trainer does", async () => {
    const trainer = await GgmlTrainer.create({ modelPath, weights: "lora", lora: LORA, syncDirectory: join(folder, "sync-lora"), configuration: CONFIGURATION, seed: 1 });
    const client = await LlamaInferenceClient.create({ modelPath, sequences: 1, mode: "exact" });
    try {
      expect(trainer.initialAdapterPath).toBe(join(folder, "sync-lora", "policy-v0.lora.gguf"));
      const metrics = await trainer.update(batch);
      expect(metrics.optimizerSteps).toBe(4);
      const sync = await trainer.sync(client, 1);
      expect(sync).toMatchObject({ format: "adapter", version: 1, path: join(folder, "sync-lora", "policy-v1.lora.gguf") });
      const [output] = await client.generate([
        { messages: [{ role: "user", content: "7+5=" }], sampler: { ...DEFAULT_SAMPLER, maxTokens: 8, seed: 3 }, constraint: null },
      ]);
      const synced = await GgmlPolicy.load({ modelPath, loraPath: sync.path });
      const [logprobs] = await synced.logprobsBatch([{ promptTokenIds: output!.promptTokenIds, completionTokenIds: output!.completionTokenIds, temperature: 1 }]);
      await synced.dispose();
      logprobs!.forEach((value, index) => expect(Math.abs(value - output!.completionLogprobs[index]!)).toBeLessThan(1e-5));
      // Trained: the adapter's B moved off zero.
      const reader = await GgufReader.open(sync.path);
      expect((await reader.readTensor("blk.0.attn_q.weight.lora_b")).some((value) => value !== 0)).toBe(true);
      await reader.close();
    } finally {
      await client.dispose();
      await trainer.dispose();
    }
  });

  it("trains over a frozen q8_0 base, and its checkpoints restore in the tfjs trainer", async () => {
    const quantisedPath = (await createRandomModel({ path: join(folder, "tiny-q8.gguf"), preset: "tiny", architecture: "llama", seed: 12, weightType: "q8_0" })).path;
    const options = { modelPath: quantisedPath, weights: "lora" as const, lora: LORA, configuration: CONFIGURATION, seed: 6 };
    const ggml = await GgmlTrainer.create({ ...options, syncDirectory: join(folder, "sync-q8-a") });
    const tfjs = await TfjsTrainer.create({ ...options, syncDirectory: join(folder, "sync-q8-b") });
    try {
      const metrics = await ggml.update(batch);
      expect(metrics).toMatchObject({ optimizerSteps: 4, skippedOptimizerSteps: 0 });
      await ggml.saveCheckpoint(join(folder, "lora-from-ggml"));
      await tfjs.restoreCheckpoint(join(folder, "lora-from-ggml"));
      await tfjs.saveCheckpoint(join(folder, "lora-from-tfjs"));
      for (const file of ["weights.gguf", "optimizer.gguf"]) {
        const written = await GgufReader.open(join(folder, "lora-from-ggml", file));
        const rewritten = await GgufReader.open(join(folder, "lora-from-tfjs", file));
        try {
          for (const tensor of written.tensors) expect(await rewritten.readTensor(tensor.name), `${file}: ${tensor.name}`).toEqual(await written.readTensor(tensor.name));
        } finally {
          await written.close();
          await rewritten.close();
        }
      }
      await ggml.restoreCheckpoint(join(folder, "lora-from-tfjs"));
      expect(ggml.updates).toBe(1);
    } finally {
      await ggml.dispose();
      await tfjs.dispose();
    }
  });
});
