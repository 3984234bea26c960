import * as tf from "@tensorflow/tfjs";

/**
 * Mean binary cross-entropy of sigmoid(logits) against labels in [0, 1] (soft
 * labels allowed): mean(softplus(z) − z·y), the same as −[y·log σ(z) + (1 −
 * y)·log(1 − σ(z))] but finite for any z.
 */
export function binaryCrossEntropyWithLogits(logits: tf.Tensor1D, labels: tf.Tensor1D): tf.Scalar {
  return tf.tidy(() => tf.mean(tf.sub(tf.softplus(logits), tf.mul(logits, labels))));
}
