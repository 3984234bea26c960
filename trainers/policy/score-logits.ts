import * as tf from "@tensorflow/tfjs";
import { gatherRows } from "./gather-rows.js";

/** What the output layer's logits say about the completion tokens. */
export interface LogitScores {
  /** log softmax(logits / T) at each row's target token, `[rows]`. */
  logprobs: tf.Tensor1D;
  /** Entropy in nats of softmax(logits / T) at each row, `[rows]`; only when asked for. */
  entropy: tf.Tensor1D | undefined;
}

/**
 * The last stage of the forward pass: each row of `logits` (`[rows, vocabulary]`)
 * is divided by its temperature and log-softmaxed; the target token's entry is
 * picked, and with `withEntropy` the entropy −Σ p·log p is summed over the
 * vocabulary. Both are differentiable with respect to `logits`.
 */
export function scoreLogits(logits: tf.Tensor2D, temperatures: Float32Array, targetTokenIds: Int32Array, withEntropy: boolean): LogitScores {
  const [rows, vocabulary] = logits.shape;
  const logprobs = tf.logSoftmax(tf.div(logits, tf.tensor2d(temperatures, [rows, 1])));
  // Pick each row's target from the flattened [rows · vocabulary] logprobs (gatherRows has a gradient on every backend).
  const picks = Int32Array.from(targetTokenIds, (target, index) => index * vocabulary + target);
  const picked = tf.reshape(gatherRows(tf.reshape(logprobs, [rows * vocabulary, 1]), tf.tensor1d(picks, "int32")), [rows]) as tf.Tensor1D;
  const entropy = withEntropy ? (tf.neg(tf.sum(tf.mul(tf.exp(logprobs), logprobs), 1)) as tf.Tensor1D) : undefined;
  return { logprobs: picked, entropy };
}
