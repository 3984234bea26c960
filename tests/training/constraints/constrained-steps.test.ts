import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import seedrandom from "seedrandom";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { Arena } from "../../../src/arena/arena.js";
import type { TrainingRecord } from "../../../src/core/schemas/training-record.js";
import { DEFAULT_SAMPLER } from "../../../src/core/schemas/sampler-settings.js";
import { GrammarRejectedTokenError } from "../../../src/inference/errors/index.js";
import { grammarTextFor } from "../../../src/inference/grammar/grammar-text-for.js";
import { LlamaInferenceClient } from "../../../src/inference/llama/llama-inference-client.js";
import { createRandomModel } from "../../../src/inference/model-files/create-random-model.js";
import { NativeConstraintMasks } from "../../../src/inference/native/native-constraint-masks.js";
import { CHECK_CONSTRAINT, checkLogprobs } from "../../../src/training/tfjs/check-logprobs.js";
import { AdamW } from "../../../src/training/tfjs/optimizer/adamw.js";
import type { ScoredSequence } from "../../../src/training/tfjs/policy/pack-sequences.js";
import { Policy } from "../../../src/training/tfjs/policy/policy.js";
import { replayConstraintMasks } from "../../../src/training/update/replay-constraint-masks.js";
import { TrainerConfigurationSchema } from "../../../src/training/trainer/trainer-configuration.js";
import { trainOnBatch } from "../../../src/training/tfjs/train-on-batch.js";
import { TfjsTrainer } from "../../../src/training/tfjs/tfjs-trainer.js";
import { StructuredEpisode } from "../../helpers/structured-episode.js";

const VerdictSchema = z.object({ approved: z.boolean(), score: z.number().min(0).max(1), note: z.string().max(40) });

let folder: string;
let modelPath: string;
let records: TrainingRecord[];
let masks: NativeConstraintMasks;
let policy: Policy;

/** The records' prompts, completions and temperatures; with `withMasks`, each one's rebuilt masks. */
function sequencesOf(batch: readonly TrainingRecord[], replayed?: ReadonlyMap<TrainingRecord, unknown>) {
  return batch.map((record) => ({
    promptTokenIds: record.promptTokenIds,
    completionTokenIds: record.completionTokenIds,
    temperature: record.sampler.temperature,
    ...(replayed?.has(record) === true && { masks: replayed.get(record) as never }),
  }));
}

function maxAbsDifference(engine: readonly TrainingRecord[], trainer: readonly Float64Array[]): number {
  let largest = 0;
  engine.forEach((record, index) => {
    record.logprobs.forEach((logprob, position) => {
      largest = Math.max(largest, Math.abs(logprob - (trainer[index]?.[position] as number)));
    });
  });
  return largest;
}

beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), "selfplay-constrained-steps-"));
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
  masks = await NativeConstraintMasks.create(modelPath);
  policy = await Policy.load({ modelPath });
}, 300_000);

afterAll(async () => {
  policy.dispose();
  await masks.dispose();
  await rm(folder, { recursive: true, force: true });
});

describe("constrained Steps on the real engine", () => {
  it("records carry the grammar text and logit bias they were sampled under", () => {
    expect(records.length).toBeGreaterThanOrEqual(8);
    for (const record of records) {
      expect(record.constrained).toBe(true);
      expect(record.constraint?.gbnf).toMatch(/^root ::=/m);
      expect(record.constraint?.logitBias).toEqual({ '"': 3 });
    }
  });

  it("the tfjs trainer's masked logprobs agree with the engine's within 1e-5; unmasked ones do not", async () => {
    const replayed = await replayConstraintMasks(records, masks);
    expect(replayed.size).toBe(records.length);
    const masked = await policy.logprobsBatch(sequencesOf(records, replayed));
    const unmasked = await policy.logprobsBatch(sequencesOf(records));
    const tokens = records.reduce((sum, record) => sum + record.completionTokenIds.length, 0);
    const agreement = maxAbsDifference(records, masked);
    console.log(`constrained Steps: ${records.length} records, ${tokens} tokens; masked max |Δ| ${agreement.toExponential(2)}, unmasked ${maxAbsDifference(records, unmasked).toExponential(2)}`);
    expect(agreement).toBeLessThanOrEqual(1e-5);
    expect(maxAbsDifference(records, unmasked)).toBeGreaterThan(1e-2);
  });

  it("a constrained record changes the weights in one trainOnBatch; without masks it is left out, counted", async () => {
    const configuration = TrainerConfigurationSchema.parse({ algorithm: "reinforce", minibatchSize: 64, optimizer: { learningRate: 1e-2 } });
    const learner = await Policy.load({ modelPath });
    try {
      const signed = records.map((record, index) => ({ ...record, advantage: index % 2 === 0 ? 1 : -1 }));
      const replayed = await replayConstraintMasks(signed, masks);
      const before = await learner.logprobsBatch(sequencesOf(signed, replayed));

      const withoutMasks = await trainOnBatch(signed, { policy: learner, optimizer: new AdamW(configuration.optimizer), configuration, random: seedrandom("a") });
      expect(withoutMasks.skippedUpdate).toBe(true);
      expect(withoutMasks.skippedRecords.constrained).toBe(signed.length);

      const metrics = await trainOnBatch(signed, {
        policy: learner,
        optimizer: new AdamW(configuration.optimizer),
        configuration,
        random: seedrandom("a"),
        constraintMasks: replayed,
      });
      expect(metrics.trainedRecords).toBe(signed.length);
      expect(metrics.skippedRecords.constrained).toBe(0);
      expect(metrics.optimizerSteps).toBe(1);
      expect(metrics.gradientNorm).toBeGreaterThan(0);
      // π_old is the trainer's masked distribution: the engine's within the agreement bound.
      expect(metrics.mismatchKl).toBeLessThan(1e-9);
      const after = await learner.logprobsBatch(sequencesOf(signed, replayed));
      const sum = (values: Float64Array) => values.reduce((total, value) => total + value, 0);
      const gains = after.map((values, index) => sum(values) - sum(before[index] as Float64Array));
      expect(gains.filter((gain, index) => (index % 2 === 0 ? gain > 0 : gain < 0)).length).toBeGreaterThanOrEqual(Math.ceil(0.75 * gains.length));
    } finally {
      learner.dispose();
    }
  });

  it("TfjsTrainer replays the masks itself and trains constrained records, a top-k one under its truncation", async () => {
    const trainer = await TfjsTrainer.create({ modelPath, syncDirectory: join(folder, "sync"), configuration: { algorithm: "reinforce" } });
    try {
      const batch = records.map((record, index) => ({ ...record, advantage: index % 2 === 0 ? 1 : -1 }));
      const truncated = { ...(batch[0] as TrainingRecord), sampler: { ...(batch[0] as TrainingRecord).sampler, topK: 40 } };
      const metrics = await trainer.update({
        batchIndex: 0,
        records: [...batch, truncated],
        creditAssigner: "test",
        stats: { rollouts: 4, failedRollouts: 0, skippedSteps: 0, completionTokens: 0 },
      });
      expect(metrics.trainedRecords).toBe(batch.length + 1);
      expect(metrics.skippedRecords).toEqual({ constrained: 0, truncated: 0, greedy: 0, empty: 0, zeroAdvantage: 0 });
      expect(metrics.optimizerSteps).toBeGreaterThan(0);
    } finally {
      await trainer.dispose();
    }
  });

  it("Steps sampled with top-k, top-p and min-p (with and without a grammar) are scored under the same truncation within 1e-5", async () => {
    const client = await LlamaInferenceClient.create({ modelPath, sequences: 4, contextSize: 512, mode: "exact" });
    const samples: Array<{ sequence: ScoredSequence; logprobs: Float64Array }> = [];
    try {
      const truncations = [{ topK: 8, topP: 1, minP: 0 }, { topK: 0, topP: 0.9, minP: 0 }, { topK: 0, topP: 1, minP: 0.05 }, { topK: 20, topP: 0.8, minP: 0.02 }];
      for (const truncation of truncations) {
        const requests = [false, true].flatMap((constrained) =>
          [0.7, 1.2].map((temperature, index) => ({
            messages: [{ role: "user" as const, content: `cut ${index}` }],
            sampler: { ...DEFAULT_SAMPLER, ...truncation, temperature, maxTokens: 100, seed: 40 + index },
            constraint: constrained ? CHECK_CONSTRAINT : null,
          })),
        );
        const outputs = await client.generate(requests);
        for (const [index, output] of outputs.entries()) {
          const { constraint, sampler } = requests[index] as (typeof requests)[number];
          const replayed = constraint === null ? undefined : await masks.replay({ gbnf: grammarTextFor(constraint), logitBias: { '"': 2 } }, output.completionTokenIds);
          const sequence = { promptTokenIds: output.promptTokenIds, completionTokenIds: output.completionTokenIds, temperature: sampler.temperature, truncation };
          samples.push({ sequence: replayed === undefined ? sequence : { ...sequence, masks: replayed }, logprobs: output.completionLogprobs });
        }
      }
    } finally {
      await client.dispose();
    }
    const truncated = await policy.logprobsBatch(samples.map(({ sequence }) => sequence));
    const untruncated = await policy.logprobsBatch(samples.map(({ sequence: { truncation: _, ...sequence } }) => sequence));
    const largest = (scores: readonly Float64Array[]) =>
      Math.max(...samples.flatMap(({ logprobs }, index) => Array.from(logprobs, (logprob, position) => Math.abs(logprob - (scores[index]?.[position] as number)))));
    console.log(`truncated Steps: ${samples.reduce((sum, { logprobs }) => sum + logprobs.length, 0)} tokens; max |Δ| ${largest(truncated).toExponential(2)}, untruncated ${largest(untruncated).toExponential(2)}`);
    expect(largest(truncated)).toBeLessThanOrEqual(1e-5);
    expect(largest(untruncated)).toBeGreaterThan(1e-2);
  }, 120_000);

  it("a grammar that rejects a recorded token is a GrammarRejectedTokenError naming the position", async () => {
    const record = records[0] as TrainingRecord;
    await expect(masks.replay({ gbnf: 'root ::= "]"+' }, record.completionTokenIds)).rejects.toThrowError(GrammarRejectedTokenError);
    await expect(masks.replay({ gbnf: 'root ::= "]"+' }, record.completionTokenIds)).rejects.toThrowError(/completion token 0 \(id \d+\) is not allowed/);
    // A parse error or an unknown token is an input error, not an abort.
    await expect(masks.replay({ gbnf: "root ::= [" }, record.completionTokenIds)).rejects.toThrowError(/constraint\.gbnf/);
    await expect(masks.replay({ gbnf: 'root ::= "a"' }, [1_000_000])).rejects.toThrowError(/completionTokenIds\[0\]/);
  });

  it("check-logprobs --constrained samples every other request under a JSON schema and scores it under the rebuilt masks, on both trainers", async () => {
    const result = await checkLogprobs({ modelPath, tokens: 300, sequences: 4, seed: 2, constrained: true });
    expect(result.constrained.tokens).toBeGreaterThan(0);
    expect(result.tokens).toBeGreaterThan(0);
    expect(result.constrained.maxAbsDiff).toBeLessThanOrEqual(1e-5);
    expect(result.maxAbsDiff).toBeLessThanOrEqual(1e-5);
    // The ggml trainer reads the same masks (ConstraintMasks through constraintRows).
    const ggml = await checkLogprobs({ modelPath, tokens: 300, sequences: 4, seed: 2, constrained: true, trainer: "ggml" });
    expect(ggml.constrained.tokens).toBe(result.constrained.tokens);
    expect(ggml.constrained.maxAbsDiff).toBeLessThanOrEqual(1e-5);
  }, 120_000);
});
