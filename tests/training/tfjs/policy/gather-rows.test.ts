import * as tf from "@tensorflow/tfjs";
import { beforeAll, describe, expect, it } from "vitest";
import { selectBackend } from "../../../../src/training/tfjs/backend/select-backend.js";
import { gatherRows } from "../../../../src/training/tfjs/policy/gather-rows.js";

/** Value and gradient of Σ w ⊙ gather(table, rows) with respect to the table. */
function gatherAndGradient(gather: (table: tf.Tensor2D, rows: tf.Tensor1D) => tf.Tensor) {
  return tf.tidy(() => {
    const table = tf.tensor2d(Float32Array.from({ length: 6 * 4 }, (_, index) => Math.cos(index)), [6, 4]);
    // Row 2 three times and row 5 twice: repeated rows must add their gradients up.
    const rows = tf.tensor1d([2, 0, 2, 5, 2, 5], "int32");
    const weights = tf.tensor2d(Float32Array.from({ length: 6 * 4 }, (_, index) => index - 7), [6, 4]);
    const gradient = tf.grad((x: tf.Tensor) => tf.sum(tf.mul(gather(x as tf.Tensor2D, rows), weights)))(table);
    return { value: Array.from(gather(table, rows).dataSync()), gradient: Array.from(gradient.dataSync()) };
  });
}

describe("gatherRows", () => {
  beforeAll(async () => {
    await selectBackend({ candidates: ["wasm"] });
  });

  it("has a gradient on wasm, where tf.gather's throws", () => {
    expect(() => gatherAndGradient((table, rows) => tf.gather(table, rows))).toThrow(/UnsortedSegmentSum/);
    expect(() => gatherAndGradient(gatherRows)).not.toThrow();
  });

  it("equals tf.gather and its gradient on the cpu backend, repeated rows included", async () => {
    const ours = gatherAndGradient(gatherRows);
    await tf.setBackend("cpu");
    const reference = gatherAndGradient((table, rows) => tf.gather(table, rows));
    await tf.setBackend("wasm");
    expect(ours.value).toEqual(reference.value);
    expect(ours.gradient).toEqual(reference.gradient);
  });

  it("refuses float row indices", () => {
    expect(() => gatherRows(tf.zeros([2, 2]), tf.tensor1d([0]))).toThrow(/rows\.dtype: got "float32"; expected int32/);
  });
});
