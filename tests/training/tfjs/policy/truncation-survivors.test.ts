import { describe, expect, it } from "vitest";
import { truncationSurvivors } from "../../../../src/training/tfjs/policy/truncation-survivors.js";

const kept = (logits: number[], settings: { topK?: number; topP?: number; minP?: number }, target = 0) =>
  Array.from(truncationSurvivors(Float32Array.from(logits), { topK: 0, topP: 1, minP: 0, ...settings }, target));

describe("truncationSurvivors", () => {
  it("top-k keeps the k highest logits; grammar-masked tokens (−∞) never survive", () => {
    expect(kept([1, 3, 2, 0], { topK: 2 }, 1)).toEqual([0, 1, 1, 0]);
    expect(kept([1, -Infinity, 2, -Infinity], { topK: 3 })).toEqual([1, 0, 1, 0]);
  });

  it("top-k among equal logits at the cut keeps the sampled token (the distribution is the same either way)", () => {
    expect(kept([2, 1, 1, 1], { topK: 2 }, 3)).toEqual([1, 0, 0, 1]);
    expect(kept([2, 1, 1, 1], { topK: 2 }, 1)).toEqual([1, 1, 0, 0]);
  });

  it("top-p keeps tokens until their probability reaches p, the crossing token included", () => {
    // Probabilities 0.5, 0.25, 0.125, 0.125 (logits log 4, log 2, 0, 0).
    const logits = [Math.log(4), Math.log(2), 0, 0];
    expect(kept(logits, { topP: 0.5 })).toEqual([1, 0, 0, 0]);
    expect(kept(logits, { topP: 0.6 })).toEqual([1, 1, 0, 0]);
    expect(kept(logits, { topP: 0.75 })).toEqual([1, 1, 0, 0]);
    expect(kept(logits, { topP: 0.8 }, 3)).toEqual([1, 1, 0, 1]);
  });

  it("top-p renormalises over what top-k left", () => {
    // After top-2: 2/3 and 1/3.
    expect(kept([Math.log(4), Math.log(2), 0, 0], { topK: 2, topP: 0.66 })).toEqual([1, 0, 0, 0]);
    expect(kept([Math.log(4), Math.log(2), 0, 0], { topK: 2, topP: 0.7 })).toEqual([1, 1, 0, 0]);
  });

  it("min-p keeps logits at least the top one + log p (at temperature 1)", () => {
    expect(kept([0, Math.log(0.5), Math.log(0.2), Math.log(0.05)], { minP: 0.1 })).toEqual([1, 1, 1, 0]);
    expect(kept([0, Math.log(0.5), Math.log(0.2), Math.log(0.05)], { minP: 0.3 })).toEqual([1, 1, 0, 0]);
  });

  it("keeps the sampled token, moving a cut that a near-tie put before it (the engine kept it)", () => {
    expect(kept([1, 0.9999999, 0.5], { topK: 1 }, 1)).toEqual([1, 1, 0]);
    expect(kept([Math.log(4), Math.log(2), 0, 0], { topP: 0.5 }, 2)).toEqual([1, 1, 1, 0]);
    expect(kept([0, Math.log(0.5), Math.log(0.2)], { minP: 0.3 }, 2)).toEqual([1, 1, 1]);
  });
});
