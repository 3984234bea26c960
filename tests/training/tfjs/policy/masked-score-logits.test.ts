import * as tf from "@tensorflow/tfjs";
import { describe, expect, it } from "vitest";
import { scoreLogits } from "../../../../src/training/tfjs/policy/score-logits.js";

const logits = [
  [0.3, -1.2, 2.0, 0.7, 1.1],
  [-0.4, 0.9, 0.2, -2.1, 1.5],
];
const temperatures = Float32Array.of(0.7, 1.3);
const targets = Int32Array.of(2, 4);
// Row 0 under a grammar that allows tokens 0, 2, 3 with a bias of 0.5 on token 2; row 1 unconstrained.
const constraints = { allowed: Uint8Array.of(1, 0, 1, 1, 0, 1, 1, 1, 1, 1), bias: Float32Array.of(0, 0, 0.5, 0, 0, 0, 0, 0, 0, 0) };

/** log softmax((logits + bias) / T) over the kept tokens, in double: the reference. */
function referenceLogprobs(row: number, kept: (token: number) => boolean, values: number[][] = logits): number[] {
  const scaled = (values[row] as number[]).map((logit, token) => (logit + (constraints.bias[row * 5 + token] as number)) / (temperatures[row] as number));
  const maximum = Math.max(...scaled.filter((_, token) => kept(token)));
  const sum = scaled.reduce((total, value, token) => total + (kept(token) ? Math.exp(value - maximum) : 0), 0);
  return scaled.map((value, token) => (kept(token) ? value - maximum - Math.log(sum) : Number.NEGATIVE_INFINITY));
}

describe("scoreLogits under a grammar mask and logit bias", () => {
  it("is the masked, biased log-softmax at temperature, and the entropy of that distribution", () => {
    const allowed = (row: number) => (token: number) => constraints.allowed[row * 5 + token] === 1;
    const { logprobs, entropy } = scoreLogits(tf.tensor2d(logits), temperatures, targets, true, constraints);
    const expected = [0, 1].map((row) => referenceLogprobs(row, allowed(row)));
    const values = Array.from(logprobs.dataSync());
    expect(values[0]).toBeCloseTo(expected[0]![2]!, 6);
    expect(values[1]).toBeCloseTo(expected[1]![4]!, 6);
    const entropies = Array.from(entropy!.dataSync());
    expected.forEach((row, index) => {
      const reference = -row.reduce((total, value) => total + (Number.isFinite(value) ? Math.exp(value) * value : 0), 0);
      expect(entropies[index]).toBeCloseTo(reference, 5);
    });
  });

  it("sends a finite gradient to allowed logits only (central differences of the reference)", () => {
    const loss = (input: tf.Tensor) => {
      const { logprobs, entropy } = scoreLogits(input as tf.Tensor2D, temperatures, targets, true, constraints);
      return tf.add(tf.sum(logprobs), tf.mul(0.3, tf.sum(entropy!))) as tf.Scalar;
    };
    const gradient = tf.grad(loss)(tf.tensor2d(logits)).arraySync() as number[][];
    const referenceLoss = (values: number[][]) =>
      [0, 1].reduce((sum, row) => {
        const scores = referenceLogprobs(row, (token) => constraints.allowed[row * 5 + token] === 1, values);
        const entropy = -scores.reduce((value, score) => value + (Number.isFinite(score) ? Math.exp(score) * score : 0), 0);
        return sum + (scores[targets[row] as number] as number) + 0.3 * entropy;
      }, 0);
    const epsilon = 1e-5;
    logits.forEach((row, rowIndex) =>
      row.forEach((_, token) => {
        const shifted = (delta: number) => logits.map((values, index) => values.map((value, column) => (index === rowIndex && column === token ? value + delta : value)));
        const numeric = (referenceLoss(shifted(epsilon)) - referenceLoss(shifted(-epsilon))) / (2 * epsilon);
        const analytic = gradient[rowIndex]![token]!;
        expect(Number.isFinite(analytic)).toBe(true);
        if (constraints.allowed[rowIndex * 5 + token] === 0) expect(analytic).toBe(0);
        else expect(Math.abs(analytic - numeric)).toBeLessThan(1e-4);
      }),
    );
  });

  it("narrows a truncated row to its top-k survivors, chosen after the bias and the mask", () => {
    // Row 0 after bias and mask: token 2 (2.5), 3 (0.7), 0 (0.3); top-2 keeps 2 and 3.
    const { logprobs } = scoreLogits(tf.tensor2d(logits), temperatures, targets, false, constraints, [{ topK: 2, topP: 1, minP: 0 }, undefined]);
    const values = Array.from(logprobs.dataSync());
    expect(values[0]).toBeCloseTo(referenceLogprobs(0, (token) => token === 2 || token === 3)[2]!, 6);
    expect(values[1]).toBeCloseTo(referenceLogprobs(1, () => true)[4]!, 6);
  });
});
