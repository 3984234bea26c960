import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import seedrandom from "seedrandom";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { InvalidInputError } from "../../../../src/core/errors/index.js";
import { QuantisedPolicyExportError } from "../../../../src/training/tfjs/errors/index.js";
import { DEFAULT_SAMPLER } from "../../../../src/core/schemas/sampler-settings.js";
import type { TrainingRecord } from "../../../../src/core/schemas/training-record.js";
import { LlamaInferenceClient } from "../../../../src/inference/llama/llama-inference-client.js";
import { createRandomModel } from "../../../../src/inference/model-files/create-random-model.js";
import { createTrainableAdapter } from "../../../../src/training/tfjs/lora/create-trainable-adapter.js";
import { AdamW } from "../../../../src/training/tfjs/optimizer/adamw.js";
import { Policy } from "../../../../src/training/tfjs/policy/policy.js";
import { trainOnBatch } from "../../../../src/training/tfjs/train-on-batch.js";
import { TrainerConfigurationSchema } from "../../../../src/training/trainer/trainer-configuration.js";
import { syncPolicy } from "../../../../src/training/tfjs/sync/sync-policy.js";
import { weightSyncFormat } from "../../../../src/training/tfjs/sync/weight-sync-format.js";

const request = (seed: number) => ({
  messages: [{ role: "user" as const, content: "12+30=" }],
  sampler: { ...DEFAULT_SAMPLER, temperature: 0.8, maxTokens: 12, seed },
  constraint: null,
});

describe("LoRA training and adapter sync", () => {
  let folder: string;
  let modelPath: string;
  let policy: Policy;
  let client: LlamaInferenceClient;

  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), "selfplay-sync-lora-"));
    modelPath = (await createRandomModel({ path: join(folder, "base.gguf"), preset: "tiny", architecture: "llama", seed: 21, initialisationScale: 0.05 })).path;
    const loraPath = join(folder, "adapter-v0.gguf");
    await createTrainableAdapter({ modelPath, path: loraPath, rank: 4, alpha: 8, targets: ["attn_q", "attn_v", "ffn_down"], seed: 2 });
    policy = await Policy.load({ modelPath, loraPath, backends: ["cpu"] });
    client = await LlamaInferenceClient.create({ modelPath, sequences: 4 });
  });

  afterAll(async () => {
    policy?.dispose();
    await client?.dispose();
    await rm(folder, { recursive: true, force: true });
  });

  /** One GRPO step on four fresh engine samples: two rewarded, two not. */
  async function trainOneStep(optimizer: AdamW): Promise<void> {
    const outputs = await client.generate([0, 1, 2, 3].map((seed) => request(seed + 10 * optimizer.steps)));
    const records: TrainingRecord[] = outputs.map((output, index) => ({
      rolloutId: `r${index}`,
      stepIndex: 0,
      roleId: "solver",
      groupId: "g",
      promptTokenIds: Array.from(output.promptTokenIds),
      completionTokenIds: Array.from(output.completionTokenIds),
      logprobs: Array.from(output.completionLogprobs),
      reward: index < 2 ? 1 : 0,
      advantage: index < 2 ? 1 : -1,
      sampler: request(index).sampler,
      constrained: false,
      policyVersion: output.policyVersion,
    }));
    const configuration = TrainerConfigurationSchema.parse({ algorithm: "grpo", minibatchSize: 4, optimizer: optimizer.configuration });
    const metrics = await trainOnBatch(records, { policy, optimizer, configuration, random: seedrandom("lora") });
    expect(metrics.optimizerSteps).toBe(1);
    // The engine served exactly the adapter the trainer holds.
    expect(metrics.mismatchKl).toBeLessThan(1e-8);
  }

  it("exports the trained factors as a new adapter per version; the engine's logprobs then equal the trainer's to 1e-4", async () => {
    const optimizer = new AdamW({ learningRate: 1e-2, beta1: 0.9, beta2: 0.999, epsilon: 1e-8, weightDecay: 0 });
    for (const version of [1, 2]) {
      const [before] = await client.generate([request(99)]);
      await trainOneStep(optimizer);
      const sync = await syncPolicy({ policy, client, directory: folder, version });
      expect(sync).toMatchObject({ format: "adapter", path: join(folder, `policy-v${version}.lora.gguf`), version });
      const [after] = await client.generate([request(99)]);
      expect(after!.policyVersion).toBe(version);
      const trainer = await policy.logprobs(after!.promptTokenIds, after!.completionTokenIds, 0.8);
      const difference = Math.max(...Array.from(trainer, (logprob, index) => Math.abs(logprob - after!.completionLogprobs[index]!)));
      if (process.env["SELFPLAY_PRINT_FIGURES"]) console.log(`version ${version}: max |engine − trainer| ${difference.toExponential(2)}`);
      expect(difference).toBeLessThan(1e-4);
      // The served model did change: the trainer's new numbers no longer match what the engine sampled before.
      const stale = await policy.logprobs(before!.promptTokenIds, before!.completionTokenIds, 0.8);
      expect(Math.max(...Array.from(stale, (logprob, index) => Math.abs(logprob - before!.completionLogprobs[index]!)))).toBeGreaterThan(1e-3);
      // The file round-trips: a policy loaded from it scores as the trained one.
      const reloaded = await Policy.load({ modelPath, loraPath: sync.path, backends: ["cpu"] });
      try {
        const again = await reloaded.logprobs(after!.promptTokenIds, after!.completionTokenIds, 0.8);
        expect(Math.max(...Array.from(again, (logprob, index) => Math.abs(logprob - trainer[index]!)))).toBeLessThan(1e-6);
      } finally {
        reloaded.dispose();
      }
    }
  });

  it("picks full weights for an f32 base, refuses a quantised base without an adapter unless full is asked for", async () => {
    expect(await weightSyncFormat(policy)).toBe("adapter");
    await expect(weightSyncFormat(policy, "full")).rejects.toThrow(InvalidInputError);
    const full = await Policy.load({ modelPath, backends: ["cpu"] });
    const quantisedPath = (await createRandomModel({ path: join(folder, "q8.gguf"), preset: "tiny", architecture: "llama", seed: 21, weightType: "q8_0" })).path;
    const quantised = await Policy.load({ modelPath: quantisedPath, backends: ["cpu"] });
    try {
      expect(await weightSyncFormat(full)).toBe("full");
      await expect(weightSyncFormat(full, "adapter")).rejects.toThrow(InvalidInputError);
      await expect(weightSyncFormat(quantised)).rejects.toThrow(QuantisedPolicyExportError);
      await expect(weightSyncFormat(quantised)).rejects.toThrow(/q8_0/);
      expect(await weightSyncFormat(quantised, "full")).toBe("full");
    } finally {
      full.dispose();
      quantised.dispose();
    }
  });
});
