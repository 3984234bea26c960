import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as tf from "@tensorflow/tfjs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRandomModel } from "../../../../src/inference/model-files/create-random-model.js";
import { planLengthBuckets } from "../../../../src/training/tfjs/policy/plan-length-buckets.js";
import { Policy } from "../../../../src/training/tfjs/policy/policy.js";

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

describe("Policy.completionOutputs over sequences of very different lengths", () => {
  // Twelve short rows and two long ones: planLengthBuckets gives them separate forward passes (batched attention for the short, pairwise for the long).
  const mixed = [
    ...Array.from({ length: 12 }, (_, index) => ({ promptTokenIds: [1, 72 + index], completionTokenIds: [33 + index, 2], temperature: 1 + index / 20 })),
    { promptTokenIds: Array.from({ length: 70 }, (_, index) => 40 + (index % 60)), completionTokenIds: [50, 51, 52], temperature: 0.8 },
    { promptTokenIds: Array.from({ length: 68 }, (_, index) => 90 - (index % 50)), completionTokenIds: [60, 61], temperature: 1 },
  ].sort((a, b) => a.completionTokenIds[0]! - b.completionTokenIds[0]!);

  it("returns every output in input order, equal to each sequence scored alone, with the same gradients", () => {
    const together = tf.tidy(() => {
      const outputs = policy.completionOutputs(mixed, { entropy: true, hiddenStates: true });
      return { logprobs: outputs.logprobs.arraySync(), entropy: outputs.entropy!.arraySync(), hidden: outputs.hiddenStates!.arraySync() };
    });
    const alone = mixed.map((sequence) =>
      tf.tidy(() => {
        const outputs = policy.completionOutputs([sequence], { entropy: true, hiddenStates: true });
        return { logprobs: outputs.logprobs.arraySync(), entropy: outputs.entropy!.arraySync(), hidden: outputs.hiddenStates!.arraySync() };
      }),
    );
    const flat = <T>(pick: (entry: (typeof alone)[number]) => T[]) => alone.flatMap(pick);
    expect(planLengthBuckets(mixed.map((sequence) => sequence.promptTokenIds.length + sequence.completionTokenIds.length - 1))).toHaveLength(2);
    expect(together.logprobs.length).toBe(29);
    together.logprobs.forEach((value, index) => expect(value).toBeCloseTo(flat((entry) => entry.logprobs)[index]!, 5));
    together.entropy.forEach((value, index) => expect(value).toBeCloseTo(flat((entry) => entry.entropy)[index]!, 5));
    together.hidden.forEach((row, index) => row.forEach((value, column) => expect(value).toBeCloseTo(flat((entry) => entry.hidden)[index]![column]!, 5)));

    const gradientOf = (sequences: typeof mixed) =>
      tf.tidy(() => {
        const { grads } = tf.variableGrads(() => tf.sum(policy.completionLogprobs(sequences)) as tf.Scalar, policy.trainableVariables);
        return Object.fromEntries(Object.entries(grads).map(([name, gradient]) => [name, gradient.dataSync()]));
      });
    const bucketed = gradientOf(mixed);
    const summed = mixed.map((sequence) => gradientOf([sequence]));
    for (const [name, gradient] of Object.entries(bucketed)) {
      gradient.forEach((value, index) => {
        const expected = summed.reduce((sum, part) => sum + part[name]![index]!, 0);
        expect(Math.abs(value - expected)).toBeLessThan(1e-5 + 1e-4 * Math.abs(expected));
      });
    }
  });
});
