import { describe, expect, it } from "vitest";
import { HashedNgramFeaturiser } from "../../../src/frontier/prm/hashed-ngram-featuriser.js";
import { selectBackend } from "../../../src/training/tfjs/backend/select-backend.js";
import { trainPrm } from "../../../src/training/prm/train-prm.js";
import { syntheticPrmExamples } from "./synthetic-prm-examples.js";

describe("trainPrm on the wasm backend", () => {
  it("has every kernel its forward and backward passes need (wasm lacks some, e.g. UnsortedSegmentSum)", async () => {
    expect((await selectBackend({ candidates: ["wasm"] })).backend).toBe("wasm");
    const examples = syntheticPrmExamples(120, "wasm");
    for (const activation of ["relu", "tanh"] as const) {
      const losses: number[] = [];
      const trained = await trainPrm(examples, {
        featuriser: new HashedNgramFeaturiser({ dimensions: 64 }),
        configuration: { hiddenDimensions: 8, activation, epochs: 3, learningRate: 1e-2 },
        onEpochEnd: ({ loss }) => losses.push(loss),
      });
      expect(losses.every(Number.isFinite)).toBe(true);
      expect(losses.at(-1)).toBeLessThan(losses[0] as number);
      expect(trained.metadata.training.heldOut.auc).not.toBeNull();
      trained.network.dispose();
    }
  });
});
