import * as tf from "@tensorflow/tfjs";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { RandomStream } from "../../../src/core/random/random-stream.js";
import { FRONTIER_TARGET_HINT } from "../../../src/frontier/tracker/frontier-decision.js";
import { FrontierTracker } from "../../../src/frontier/tracker/frontier-tracker.js";
import { HashedNgramFeaturiser } from "../../../src/frontier/prm/hashed-ngram-featuriser.js";
import { OnnxPrmScorer } from "../../../src/frontier/prm/onnx-prm-scorer.js";
import { savePrm } from "../../../src/training/prm/save-prm.js";
import { trainPrm } from "../../../src/training/prm/train-prm.js";
import { syntheticPrmExamples } from "../../training/prm/synthetic-prm-examples.js";

describe("FrontierTracker with a served PRM", () => {
  let scorer: OnnxPrmScorer;

  beforeAll(async () => {
    await tf.setBackend("cpu");
    const trained = await trainPrm(syntheticPrmExamples(80, "frontier"), { featuriser: new HashedNgramFeaturiser({ dimensions: 64 }), configuration: { hiddenDimensions: 8, epochs: 1 } });
    const directory = await mkdtemp(join(tmpdir(), "selfplay-frontier-prm-"));
    await savePrm(directory, trained.network.weights(), trained.metadata);
    trained.network.dispose();
    scorer = await OnnxPrmScorer.load(directory);
  });

  it("picks PRM-weighted with the ONNX scorer, and falls back once onnxruntime fails", async () => {
    const frontier = new FrontierTracker({ random: new RandomStream("served"), settings: { uniformSampleProbability: 0 } });
    const clusters = ["add-1x1-carry", "add-2x2-carry"];
    const signals = { scorer, trajectoryCounts: { "add-1x1-carry": 5, "add-2x2-carry": 1 } };
    const decision = await frontier.pickFrontierSeed(clusters, signals);
    expect(decision.reason).toBe("prm-weighted");
    expect(decision.message.startsWith(FRONTIER_TARGET_HINT)).toBe(true);
    // A released session throws inside onnxruntime: the tracker still picks a cluster.
    await scorer.dispose();
    const fallback = await frontier.pickFrontierSeed(clusters, signals);
    expect(fallback.fallback).toBe("prm-error");
    expect(clusters).toContain(fallback.cluster);
    expect(fallback.error).not.toBeNull();
  });
});
