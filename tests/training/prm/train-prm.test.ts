import * as tf from "@tensorflow/tfjs";
import { beforeAll, describe, expect, it } from "vitest";
import { HashedNgramFeaturiser } from "../../../src/frontier/prm/hashed-ngram-featuriser.js";
import { PrmMetadataSchema } from "../../../src/frontier/prm/prm-metadata.js";
import { trainPrm } from "../../../src/training/prm/train-prm.js";
import { syntheticPrmExamples } from "./synthetic-prm-examples.js";

const CONFIGURATION = { hiddenDimensions: 16, epochs: 8, batchSize: 32, learningRate: 1e-2, heldOutFraction: 0.25, seed: 3 };

describe("trainPrm", () => {
  beforeAll(async () => {
    await tf.setBackend("cpu");
  });

  it("learns a separable problem: held-out AUC > 0.95, well above the per-cluster prior", async () => {
    const examples = syntheticPrmExamples(480, "separable");
    const losses: number[] = [];
    const trained = await trainPrm(examples, {
      featuriser: new HashedNgramFeaturiser({ dimensions: 256 }),
      configuration: CONFIGURATION,
      onEpochEnd: ({ loss }) => losses.push(loss),
    });
    const { heldOut, trainExamples, heldOutExamples } = trained.metadata.training;
    expect(trainExamples + heldOutExamples).toBe(480);
    expect(heldOutExamples).toBeGreaterThan(80);
    expect(heldOut.n).toBe(heldOutExamples);
    expect(heldOut.auc).toBeGreaterThan(0.95);
    expect(heldOut.baselineAuc).toBeLessThan(0.65);
    expect(heldOut.brier).toBeLessThan(0.1);
    expect(losses).toHaveLength(8);
    expect(losses.at(-1)).toBeLessThan((losses[0] as number) / 2);
    expect(PrmMetadataSchema.parse(trained.metadata)).toEqual(trained.metadata);
    console.log(`synthetic PRM: held-out AUC ${heldOut.auc}, baseline ${heldOut.baselineAuc}, Brier ${heldOut.brier}, ECE ${heldOut.ece}, n ${heldOut.n}`);
    trained.network.dispose();
  });

  it("is reproducible with a seed, and fine-tunes from given weights", async () => {
    const examples = syntheticPrmExamples(160, "repeat");
    const featuriser = new HashedNgramFeaturiser({ dimensions: 64 });
    const configuration = { ...CONFIGURATION, epochs: 2 };
    const first = await trainPrm(examples, { featuriser, configuration });
    const second = await trainPrm(examples, { featuriser, configuration });
    expect(second.network.weights()).toEqual(first.network.weights());
    expect(second.heldOutProbabilities).toEqual(first.heldOutProbabilities);

    const weights = first.network.weights();
    const tuned = await trainPrm(examples, {
      featuriser,
      configuration: { ...configuration, epochs: 0, hiddenDimensions: 99 },
      initial: { shape: first.metadata.network, weights, from: "runs/prm-1" },
    });
    // No epochs: the fine-tuned PRM is the one it started from, shape included.
    expect(tuned.network.weights()).toEqual(weights);
    expect(tuned.metadata.network.hiddenDimensions).toBe(16);
    expect(tuned.metadata.training.from).toBe("runs/prm-1");
    expect(tuned.heldOutProbabilities).toEqual(first.heldOutProbabilities);
    await expect(
      trainPrm(examples, { featuriser: new HashedNgramFeaturiser({ dimensions: 32 }), initial: { shape: first.metadata.network, weights, from: "x" } }),
    ).rejects.toThrow(/featuriser\.dimensions/);
    for (const trained of [first, second, tuned]) trained.network.dispose();
  });

  it("trains on soft labels", async () => {
    const examples = syntheticPrmExamples(160, "soft").map((example) => ({ ...example, label: example.label === 1 ? 0.8 : 0.3 }));
    const trained = await trainPrm(examples, { featuriser: new HashedNgramFeaturiser({ dimensions: 64 }), configuration: { ...CONFIGURATION, epochs: 12 } });
    const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;
    expect(trained.heldOutProbabilities.length).toBeGreaterThan(20);
    // Probabilities settle near the soft labels, not at 0 and 1.
    const probabilities = trained.heldOutProbabilities;
    expect(Math.max(...probabilities)).toBeLessThan(0.95);
    expect(Math.min(...probabilities)).toBeGreaterThan(0.1);
    expect(mean(probabilities)).toBeGreaterThan(0.4);
    expect(mean(probabilities)).toBeLessThan(0.7);
    trained.network.dispose();
  });
});
