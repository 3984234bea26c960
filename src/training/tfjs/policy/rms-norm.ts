import * as tf from "@tensorflow/tfjs";

/** x / √(mean(x²) + ε) · weight over the last axis, as llama.cpp's `ggml_rms_norm` then `ggml_mul`. */
export function rmsNorm(x: tf.Tensor2D, weight: tf.Tensor, epsilon: number): tf.Tensor2D {
  return tf.mul(tf.mul(x, tf.rsqrt(tf.add(tf.mean(tf.square(x), -1, true), epsilon))), weight);
}
