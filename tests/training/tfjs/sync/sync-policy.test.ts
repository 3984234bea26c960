import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as tf from "@tensorflow/tfjs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_SAMPLER } from "../../../../src/core/schemas/sampler-settings.js";
import { LlamaInferenceClient } from "../../../../src/inference/llama/llama-inference-client.js";
import { createRandomModel } from "../../../../src/inference/model-files/create-random-model.js";
import { Policy } from "../../../../src/training/tfjs/policy/policy.js";
import { syncPolicy } from "../../../../src/training/tfjs/sync/sync-policy.js";

describe("syncPolicy", () => {
  let folder: string;
  let policy: Policy;
  let client: LlamaInferenceClient;

  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), "selfplay-sync-"));
    const modelPath = (await createRandomModel({ path: join(folder, "base.gguf"), preset: "tiny", architecture: "qwen2", seed: 5, untiedOutput: true })).path;
    policy = await Policy.load({ modelPath, backends: ["cpu"] });
    client = await LlamaInferenceClient.create({ modelPath, sequences: 2 });
  });

  afterAll(async () => {
    policy.dispose();
    await client.dispose();
  });

  it("serves the trainer's changed weights: the engine's logprobs after the swap equal the trainer's", async () => {
    // Change every weight, as an update would (a deterministic perturbation).
    for (const variable of policy.trainableVariables) {
      tf.tidy(() => variable.assign(tf.add(variable, tf.mul(tf.sin(tf.range(0, variable.size).reshape(variable.shape)), 0.02))));
    }
    const request = { messages: [{ role: "user" as const, content: "12+30=" }], sampler: { ...DEFAULT_SAMPLER, temperature: 0.8, maxTokens: 16, seed: 4 }, constraint: null };
    const [before] = await client.generate([request]);
    const sync = await syncPolicy({ policy, client, directory: folder, version: 1 });
    expect(sync.path).toBe(join(folder, "policy-v1.gguf"));
    expect(sync.exportSeconds + sync.swapSeconds).toBeGreaterThan(0);
    const [after] = await client.generate([request]);
    expect(after!.policyVersion).toBe(1);
    const trainer = await policy.logprobs(after!.promptTokenIds, after!.completionTokenIds, 0.8);
    let maxDifference = 0;
    trainer.forEach((logprob, index) => (maxDifference = Math.max(maxDifference, Math.abs(logprob - (after!.completionLogprobs[index] as number)))));
    expect(maxDifference).toBeLessThan(1e-4);
    // And the served model did change.
    const stale = await policy.logprobs(before!.promptTokenIds, before!.completionTokenIds, 0.8);
    expect(Math.abs((stale[0] as number) - (before!.completionLogprobs[0] as number))).toBeGreaterThan(1e-3);
  });
});
