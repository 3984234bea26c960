import * as tf from "@tensorflow/tfjs";
import { mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { PrmModelError } from "../../../src/frontier/errors/index.js";
import { HashedNgramFeaturiser } from "../../../src/frontier/prm/hashed-ngram-featuriser.js";
import { OnnxPrmScorer } from "../../../src/frontier/prm/onnx-prm-scorer.js";
import { loadPrm } from "../../../src/training/prm/load-prm.js";
import { savePrm } from "../../../src/training/prm/save-prm.js";
import { trainPrm } from "../../../src/training/prm/train-prm.js";
import { syntheticPrmExamples } from "./synthetic-prm-examples.js";

const maxDifference = (left: readonly number[], right: readonly number[]) => Math.max(...left.map((value, index) => Math.abs(value - (right[index] as number))));

describe("the PRM's ONNX export", () => {
  beforeAll(async () => {
    await tf.setBackend("cpu");
  });

  for (const activation of ["relu", "tanh"] as const) {
    it(`scores like tfjs within 1e-5 under onnxruntime (${activation})`, async () => {
      const examples = syntheticPrmExamples(200, `onnx-${activation}`);
      const featuriser = new HashedNgramFeaturiser({ dimensions: 128 });
      const trained = await trainPrm(examples, { featuriser, configuration: { hiddenDimensions: 24, activation, epochs: 6, learningRate: 1e-2, seed: 1 } });
      const directory = await mkdtemp(join(tmpdir(), "selfplay-prm-onnx-"));
      await savePrm(directory, trained.network.weights(), trained.metadata);

      const scorer = await OnnxPrmScorer.load(directory);
      const features = await featuriser.featurise(examples);
      const tfjs = trained.network.probabilities(features);
      const onnx = await scorer.scoreFeatures(features);
      expect(onnx).toHaveLength(200);
      // Spread out, so the comparison covers the whole sigmoid, not just 0.5.
      expect(Math.max(...tfjs) - Math.min(...tfjs)).toBeGreaterThan(0.5);
      const difference = maxDifference(onnx, tfjs);
      expect(difference).toBeLessThan(1e-5);
      console.log(`tfjs vs onnxruntime (${activation}): max |Δ| ${difference.toExponential(2)} over ${features.length} states`);
      // States in, the same scores out: the scorer featurises as prm.json says.
      expect(await scorer.score(examples)).toEqual(onnx);
      await scorer.dispose();
      trained.network.dispose();
    });
  }

  it("reads its weights back exactly, with the metadata", async () => {
    const examples = syntheticPrmExamples(40, "round-trip");
    const trained = await trainPrm(examples, { featuriser: new HashedNgramFeaturiser({ dimensions: 32 }), configuration: { hiddenDimensions: 8, epochs: 1 } });
    const directory = await mkdtemp(join(tmpdir(), "selfplay-prm-onnx-"));
    await savePrm(directory, trained.network.weights(), trained.metadata);
    const loaded = await loadPrm(directory);
    expect(loaded.weights).toEqual(trained.network.weights());
    expect(loaded.metadata).toEqual(trained.metadata);
    expect(JSON.parse(await readFile(join(directory, "prm.json"), "utf8"))).toEqual(trained.metadata);
    trained.network.dispose();
  });

  it("refuses a directory whose files are missing, corrupt or disagree", async () => {
    const examples = syntheticPrmExamples(40, "broken");
    const trained = await trainPrm(examples, { featuriser: new HashedNgramFeaturiser({ dimensions: 32 }), configuration: { hiddenDimensions: 8, epochs: 1 } });
    const empty = await mkdtemp(join(tmpdir(), "selfplay-prm-onnx-"));
    await expect(OnnxPrmScorer.load(empty)).rejects.toThrow(PrmModelError);
    await expect(loadPrm(empty)).rejects.toThrow(/prm\.json: cannot be read/);

    const directory = await mkdtemp(join(tmpdir(), "selfplay-prm-onnx-"));
    await savePrm(directory, trained.network.weights(), { ...trained.metadata, network: { ...trained.metadata.network } });
    const wider = { ...trained.metadata, network: { ...trained.metadata.network, hiddenDimensions: 9 } };
    await writeFile(join(directory, "prm.json"), JSON.stringify(wider));
    await expect(loadPrm(directory)).rejects.toThrow(/dense1\.weight is missing or not float32 \[32, 9\]/);

    await writeFile(join(directory, "prm.json"), JSON.stringify({ ...trained.metadata, version: 2 }));
    await expect(OnnxPrmScorer.load(directory)).rejects.toThrow(/prm\.json: version/);
    await writeFile(join(directory, "prm.json"), JSON.stringify(trained.metadata));
    await writeFile(join(directory, "prm.onnx"), "not a model");
    await expect(OnnxPrmScorer.load(directory)).rejects.toThrow(/onnxruntime cannot load it/);
    await expect(OnnxPrmScorer.load(directory, { featuriser: new HashedNgramFeaturiser({ dimensions: 64 }) })).rejects.toThrow(/width 32.*width 64/);
    trained.network.dispose();
  });
});
