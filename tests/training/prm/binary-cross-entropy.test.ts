import * as tf from "@tensorflow/tfjs";
import { beforeAll, describe, expect, it } from "vitest";
import { binaryCrossEntropyWithLogits } from "../../../src/training/prm/binary-cross-entropy.js";

describe("binaryCrossEntropyWithLogits", () => {
  beforeAll(async () => {
    await tf.setBackend("cpu");
  });

  it("matches −[y·log σ(z) + (1 − y)·log(1 − σ(z))], soft labels included, and stays finite for large logits", () => {
    const sigmoid = (z: number) => 1 / (1 + Math.exp(-z));
    const reference = (z: number, y: number) => -(y * Math.log(sigmoid(z)) + (1 - y) * Math.log(1 - sigmoid(z)));
    const logits = [0, 2, -1.5, 0.3];
    const labels = [1, 0, 0.25, 0.7];
    const expected = logits.reduce((sum, z, index) => sum + reference(z, labels[index] as number), 0) / logits.length;
    const loss = binaryCrossEntropyWithLogits(tf.tensor1d(logits), tf.tensor1d(labels));
    expect(loss.dataSync()[0]).toBeCloseTo(expected, 6);
    // log 2 at z = 0 for any label.
    expect(binaryCrossEntropyWithLogits(tf.tensor1d([0]), tf.tensor1d([0.3])).dataSync()[0]).toBeCloseTo(Math.LN2, 6);
    // z = 80 with label 0 costs 80 (σ(80) rounds to 1 in float32, the naive form would give infinity).
    expect(binaryCrossEntropyWithLogits(tf.tensor1d([80]), tf.tensor1d([0])).dataSync()[0]).toBeCloseTo(80, 4);
  });

  it("has gradient (σ(z) − y) / n with respect to the logits", () => {
    const logits = tf.tensor1d([0.5, -2]);
    const labels = tf.tensor1d([1, 0.4]);
    const gradient = tf.grad((z: tf.Tensor) => binaryCrossEntropyWithLogits(z as tf.Tensor1D, labels))(logits);
    const sigmoid = (z: number) => 1 / (1 + Math.exp(-z));
    const values = Array.from(gradient.dataSync());
    expect(values[0]).toBeCloseTo((sigmoid(0.5) - 1) / 2, 6);
    expect(values[1]).toBeCloseTo((sigmoid(-2) - 0.4) / 2, 6);
  });
});
