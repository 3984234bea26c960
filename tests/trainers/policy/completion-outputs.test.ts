import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as tf from "@tensorflow/tfjs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRandomModel } from "../../../src/inference/model-files/create-random-model.js";
import { Policy } from "../../../trainers/policy/policy.js";

const SEQUENCES = [
  { promptTokenIds: [1, 72, 105], completionTokenIds: [33, 200, 14], temperature: 0.7 },
  { promptTokenIds: [1, 40], completionTokenIds: [44, 45], temperature: 1.3 },
];

let folder: string;
let policy: Policy;
beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), "selfplay-outputs-"));
  const { path } = await createRandomModel({ path: join(folder, "tiny.gguf"), preset: "tiny", architecture: "qwen2", seed: 6, initialisationScale: 0.1 });
  policy = await Policy.load({ modelPath: path, backends: ["cpu"] });
});
afterAll(async () => {
  policy?.dispose();
  await rm(folder, { recursive: true, force: true });
});

describe("Policy.completionOutputs", () => {
  it("gives the logprobs of completionLogprobs, the entropy of softmax(logits / T) and the final hidden states", () => {
    const [logprobs, entropy, hiddenStates, plain] = tf.tidy(() => {
      const outputs = policy.completionOutputs(SEQUENCES, { entropy: true, hiddenStates: true });
      return [outputs.logprobs.arraySync(), outputs.entropy!.arraySync(), outputs.hiddenStates!.shape, policy.completionLogprobs(SEQUENCES).arraySync()];
    });
    expect(logprobs).toEqual(plain);
    expect(hiddenStates).toEqual([5, policy.configuration.embeddingLength]);
    // The entropy where each sequence's first completion token is sampled, from the logprob of every token of the vocabulary, in float64.
    SEQUENCES.forEach((sequence, index) => {
      const candidates = Array.from({ length: policy.configuration.vocabularySize }, (_, token) => ({ ...sequence, completionTokenIds: [token] }));
      const distribution = Array.from(tf.tidy(() => policy.completionLogprobs(candidates, { withGradients: false })).dataSync());
      const expected = -distribution.reduce((sum, logprob) => sum + Math.exp(logprob) * logprob, 0);
      const first = index === 0 ? 0 : SEQUENCES[0]!.completionTokenIds.length;
      expect(Math.abs(entropy[first]! - expected)).toBeLessThan(1e-5);
      expect(entropy[first]).toBeGreaterThan(0);
      expect(entropy[first]).toBeLessThan(Math.log(policy.configuration.vocabularySize));
    });
  });

  it("leaves out what was not asked for", () => {
    const outputs = tf.tidy(() => {
      const { entropy, hiddenStates } = policy.completionOutputs(SEQUENCES);
      return { entropy, hiddenStates };
    });
    expect(outputs).toEqual({ entropy: undefined, hiddenStates: undefined });
  });
});
