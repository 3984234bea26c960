import * as tf from "@tensorflow/tfjs";
import { beforeAll, describe, expect, it } from "vitest";
import { selectBackend } from "../../../../src/training/tfjs/backend/select-backend.js";
import { matMul } from "../../../../src/training/tfjs/policy/mat-mul.js";

const values = (count: number, seed: number) => Float32Array.from({ length: count }, (_, index) => Math.sin(seed * 131 + index * 7.31));

/** Gradients of Σ w ⊙ f(a, b) with respect to a and b, as plain arrays. */
function gradients(product: (a: tf.Tensor, b: tf.Tensor) => tf.Tensor, aShape: number[], bShape: number[], outputShape: number[]) {
  return tf.tidy(() => {
    const a = tf.tensor(values(aShape.reduce((x, y) => x * y), 1), aShape);
    const b = tf.tensor(values(bShape.reduce((x, y) => x * y), 2), bShape);
    const weights = tf.tensor(values(outputShape.reduce((x, y) => x * y), 3), outputShape);
    const [gradientA, gradientB] = tf.grads((x: tf.Tensor, y: tf.Tensor) => tf.sum(tf.mul(product(x, y), weights)))([a, b]);
    return { value: Array.from(product(a, b).dataSync()), a: Array.from(gradientA!.dataSync()), b: Array.from(gradientB!.dataSync()) };
  });
}

function expectClose(actual: number[], expected: number[]): void {
  expect(actual).toHaveLength(expected.length);
  const largest = Math.max(...actual.map((value, index) => Math.abs(value - (expected[index] as number))));
  expect(largest).toBeLessThan(1e-4);
}

describe("matMul (explicit transposes in the backward pass)", () => {
  beforeAll(async () => {
    await selectBackend({ candidates: ["wasm"] });
  });

  it.each([
    [[5, 7], [7, 3], [5, 3]],
    [[1, 64], [64, 1], [1, 1]],
  ])("has the value and gradients of tf.matMul on the cpu backend (%j · %j)", async (aShape, bShape, outputShape) => {
    const ours = gradients((a, b) => matMul(a as tf.Tensor2D, b as tf.Tensor2D), aShape, bShape, outputShape);
    await tf.setBackend("cpu");
    const reference = gradients((a, b) => tf.matMul(a as tf.Tensor2D, b as tf.Tensor2D), aShape, bShape, outputShape);
    await tf.setBackend("wasm");
    expectClose(ours.value, reference.value);
    expectClose(ours.a, reference.a);
    expectClose(ours.b, reference.b);
  });

  it("refuses operands that are not matrices", () => {
    expect(() => matMul(tf.zeros([2, 2]) as tf.Tensor2D, tf.zeros([1, 2, 2]) as never)).toThrow(/matMul operands: .*expected two rank-2 tensors/);
  });
});
