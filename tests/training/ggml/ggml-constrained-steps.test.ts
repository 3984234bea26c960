import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as tf from "@tensorflow/tfjs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { Arena } from "../../../src/arena/arena.js";
import type { TrainingRecord } from "../../../src/core/schemas/training-record.js";
import { LlamaInferenceClient } from "../../../src/inference/llama/llama-inference-client.js";
import { createRandomModel } from "../../../src/inference/model-files/create-random-model.js";
import { NativeConstraintMasks } from "../../../src/inference/native/native-constraint-masks.js";
import { GgmlPolicy } from "../../../src/training/ggml/ggml-policy.js";
import { GgmlTrainer } from "../../../src/training/ggml/ggml-trainer.js";
import { Policy } from "../../../src/training/tfjs/policy/policy.js";
import { replayConstraintMasks } from "../../../src/training/update/replay-constraint-masks.js";
import { transpose } from "../../../src/training/tfjs/sync/export-policy-model.js";
import { StructuredEpisode } from "../../helpers/structured-episode.js";

const VerdictSchema = z.object({ approved: z.boolean(), score: z.number().min(0).max(1), note: z.string().max(40) });

let folder: string;
let modelPath: string;
let records: TrainingRecord[];

function maxAbsDifference(engine: readonly TrainingRecord[], trainer: readonly Float64Array[]): number {
  let largest = 0;
  engine.forEach((record, index) => record.logprobs.forEach((logprob, position) => (largest = Math.max(largest, Math.abs(logprob - trainer[index]![position]!)))));
  return largest;
}

beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), "selfplay-ggml-constrained-"));
  modelPath = (await createRandomModel({ path: join(folder, "tiny.gguf"), preset: "tiny", architecture: "llama", seed: 3 })).path;
  const client = await LlamaInferenceClient.create({ modelPath, sequences: 4, contextSize: 512, mode: "exact" });
  try {
    // Strict JSON through the real engine; a bias toward the closing quote keeps a random model's strings short.
    const arena = new Arena({ client, seed: 7, samplerDefaults: { maxTokens: 160, temperature: 0.8 } });
    arena.register(new StructuredEpisode({ schema: VerdictSchema, calls: 2, maxAttempts: 3, logitBias: { '"': 3 } }));
    const results = await arena.generateRollouts(Array.from({ length: 4 }, (_, index) => ({ episodeType: "structured", artifact: { topic: `draft ${index}` } })));
    records = arena.buildTrainingBatch(results, arena.assignCredit(results), 0).records;
  } finally {
    await client.dispose();
  }
}, 300_000);

afterAll(async () => {
  await rm(folder, { recursive: true, force: true });
});

describe("constrained Steps on the ggml trainer", () => {
  it("masked logprobs agree with the engine's within 1e-5; unmasked ones do not", async () => {
    const masks = await NativeConstraintMasks.create(modelPath);
    const policy = await GgmlPolicy.load({ modelPath });
    try {
      const replayed = await replayConstraintMasks(records, masks);
      expect(replayed.size).toBe(records.length);
      const sequences = (withMasks: boolean) =>
        records.map((record) => ({
          promptTokenIds: record.promptTokenIds,
          completionTokenIds: record.completionTokenIds,
          temperature: record.sampler.temperature,
          ...(withMasks && { masks: replayed.get(record)! }),
        }));
      expect(maxAbsDifference(records, await policy.logprobsBatch(sequences(true)))).toBeLessThanOrEqual(1e-5);
      expect(maxAbsDifference(records, await policy.logprobsBatch(sequences(false)))).toBeGreaterThan(1e-2);
    } finally {
      await policy.dispose();
      await masks.dispose();
    }
  });

  it("masked gradients match the tfjs trainer's: cosine ≥ 0.9999 per tensor", async () => {
    const masks = await NativeConstraintMasks.create(modelPath);
    const policy = await GgmlPolicy.load({ modelPath, trainable: true });
    const reference = await Policy.load({ modelPath });
    try {
      const replayed = await replayConstraintMasks(records.slice(0, 3), masks);
      const sequences = records.slice(0, 3).map((record) => ({
        promptTokenIds: record.promptTokenIds,
        completionTokenIds: record.completionTokenIds,
        temperature: record.sampler.temperature,
        masks: replayed.get(record)!,
      }));
      const targets = sequences.reduce((sum, sequence) => sum + sequence.completionTokenIds.length, 0);
      const weights = Float32Array.from({ length: targets }, (_, index) => Math.sin(1 + index));
      await policy.accumulateGradients(sequences, { entropy: true }, ({ logprobs, firstTarget }) => ({
        logprobs: weights.slice(firstTarget, firstTarget + logprobs.length),
        entropy: new Float32Array(logprobs.length).fill(0.1),
      }));
      const { grads } = tf.variableGrads(() => {
        const outputs = reference.completionOutputs(sequences, { entropy: true });
        return tf.add(tf.sum(tf.mul(outputs.logprobs, tf.tensor1d(weights))), tf.mul(tf.sum(outputs.entropy!), 0.1)) as tf.Scalar;
      }, reference.trainableVariables);
      const norm = (values: Float32Array) => Math.sqrt(values.reduce((sum, value) => sum + value * value, 0));
      for (const [name, variable] of reference.variables) {
        const ours = policy.native.readTensor(name, "gradient");
        let theirs = grads[variable.name]!.dataSync() as Float32Array;
        if (variable.shape.length === 2 && name !== "token_embd.weight") theirs = transpose(theirs, variable.shape[0]!, variable.shape[1]!);
        const cosine = ours.reduce((sum, value, index) => sum + value * theirs[index]!, 0) / (norm(ours) * norm(theirs));
        expect(cosine, name).toBeGreaterThanOrEqual(0.9999);
      }
    } finally {
      await policy.dispose();
      reference.dispose();
      await masks.dispose();
    }
  });

  it("GgmlTrainer replays the masks itself and trains constrained records; truncated Steps are left out, counted", async () => {
    const trainer = await GgmlTrainer.create({ modelPath, syncDirectory: join(folder, "sync"), configuration: { algorithm: "reinforce", optimizer: { learningRate: 1e-2 } } });
    try {
      const batch = records.map((record, index) => ({ ...record, advantage: index % 2 === 0 ? 1 : -1 }));
      const truncated = { ...batch[0]!, sampler: { ...batch[0]!.sampler, topK: 40 } };
      const metrics = await trainer.update({
        batchIndex: 0,
        records: [...batch, truncated],
        creditAssigner: "test",
        stats: { rollouts: 4, failedRollouts: 0, skippedSteps: 0, completionTokens: 0 },
      });
      expect(metrics.trainedRecords).toBe(batch.length);
      expect(metrics.skippedRecords).toEqual({ constrained: 0, truncated: 1, greedy: 0, empty: 0, zeroAdvantage: 0 });
      expect(metrics.optimizerSteps).toBe(1);
      expect(metrics.gradientNorm).toBeGreaterThan(0);
      // π_old is the trainer's masked distribution: the engine's within the agreement bound.
      expect(metrics.mismatchKl).toBeLessThan(1e-9);
      expect(Number.isFinite(metrics.entropy)).toBe(true);
    } finally {
      await trainer.dispose();
    }
  });
});
