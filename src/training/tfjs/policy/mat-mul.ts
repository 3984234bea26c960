import * as tf from "@tensorflow/tfjs";
import { InvalidInputError } from "../../../core/errors/index.js";

const matMulWithExplicitTransposes = tf.customGrad((...inputs) => {
  const [a, b, save] = inputs as [tf.Tensor2D, tf.Tensor2D, tf.GradSaveFunc];
  save([a, b]);
  return {
    value: tf.matMul(a, b),
    gradFunc: (dy, saved) => {
      const [savedA, savedB] = saved as [tf.Tensor2D, tf.Tensor2D];
      // tf.matMul's own gradient passes transposeA/transposeB, which tfjs-wasm
      // runs at ~1 GFLOP/s against ~15 for a plain product: transpose first.
      return [tf.matMul(dy as tf.Tensor2D, tf.transpose(savedB)), tf.matMul(tf.transpose(savedA), dy as tf.Tensor2D)];
    },
  };
});

/**
 * `a · b` for `[m, k]·[k, n]` matrices, whose backward pass multiplies by
 * explicitly transposed copies instead of using matMul's transpose flags.
 * Two-dimensional only: tfjs-wasm hands only rank-2 products to XNNPACK (a
 * rank-3 BatchMatMul ran at 1.2 GFLOP/s against ~15), so batched products are
 * written as loops of these.
 */
export function matMul(a: tf.Tensor2D, b: tf.Tensor2D): tf.Tensor2D {
  if (a.rank !== 2 || b.rank !== 2) throw new InvalidInputError("matMul operands", "two rank-2 tensors", [a.shape, b.shape]);
  return matMulWithExplicitTransposes(a, b) as tf.Tensor2D;
}
