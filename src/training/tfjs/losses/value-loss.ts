import * as tf from "@tensorflow/tfjs";

/**
 * PPO's clipped value loss: 0.5 · max((V − R)², (V_old + clip(V − V_old, ±ε) − R)²),
 * aggregated with `weights`. Clipping keeps the value head from jumping far
 * from the values the advantages were computed with.
 */
export function clippedValueLoss(values: tf.Tensor1D, oldValues: tf.Tensor1D, returns: tf.Tensor1D, weights: tf.Tensor1D, clip: number): tf.Scalar {
  const unclipped = tf.square(tf.sub(values, returns));
  const clippedValues = tf.add(oldValues, tf.clipByValue(tf.sub(values, oldValues), -clip, clip));
  const clipped = tf.square(tf.sub(clippedValues, returns));
  return tf.mul(0.5, tf.sum(tf.mul(tf.maximum(unclipped, clipped), weights))) as tf.Scalar;
}
