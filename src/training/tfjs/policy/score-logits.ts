import * as tf from "@tensorflow/tfjs";
import type { ConstraintRows } from "./constraint-rows.js";
import { gatherRows } from "./gather-rows.js";
import { truncationSurvivors, type TruncationSettings } from "./truncation-survivors.js";

/**
 * What a disallowed token's scaled logit becomes: finite, so that p · log p is
 * 0 rather than NaN (in the entropy and its gradient), yet exp of it minus any
 * real logit is exactly 0 in f32, as llama.cpp's −∞.
 */
const MASKED_LOGIT = -1e30;

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
 * vocabulary. Both are differentiable with respect to `logits`. With
 * `constraints`, each row is scored as llama.cpp's sampler drew from it: the
 * logit bias added, the temperature applied, disallowed tokens masked out.
 * With `truncations`, a row's top-k / top-p / min-p survivors (chosen from
 * these logits, which are read back for it) are all it keeps.
 */
export function scoreLogits(
  logits: tf.Tensor2D,
  temperatures: Float32Array,
  targetTokenIds: Int32Array,
  withEntropy: boolean,
  constraints?: ConstraintRows,
  truncations?: ReadonlyArray<TruncationSettings | undefined>,
): LogitScores {
  const [rows, vocabulary] = logits.shape;
  const rowsKept = truncations === undefined ? constraints : truncatedRows(logits, targetTokenIds, constraints, truncations);
  const logprobs = tf.logSoftmax(scaledLogits(logits, tf.tensor2d(temperatures, [rows, 1]), rowsKept));
  // Pick each row's target from the flattened [rows · vocabulary] logprobs (gatherRows has a gradient on every backend).
  const picks = Int32Array.from(targetTokenIds, (target, index) => index * vocabulary + target);
  const picked = tf.reshape(gatherRows(tf.reshape(logprobs, [rows * vocabulary, 1]), tf.tensor1d(picks, "int32")), [rows]) as tf.Tensor1D;
  const entropy = withEntropy ? (tf.neg(tf.sum(tf.mul(tf.exp(logprobs), logprobs), 1)) as tf.Tensor1D) : undefined;
  return { logprobs: picked, entropy };
}

/** (logits + bias) / T with disallowed tokens at MASKED_LOGIT: the engine's order (bias, grammar mask, temperature). */
function scaledLogits(logits: tf.Tensor2D, temperatures: tf.Tensor2D, constraints: ConstraintRows | undefined): tf.Tensor2D {
  if (constraints === undefined) return tf.div(logits, temperatures);
  const shape = logits.shape;
  const scaled = tf.div(tf.add(logits, tf.tensor2d(constraints.bias, shape)), temperatures) as tf.Tensor2D;
  // where() sends no gradient to a masked token's logit: the engine's distribution does not depend on it.
  return tf.where(tf.tensor2d(constraints.allowed, shape, "bool"), scaled, tf.fill(shape, MASKED_LOGIT));
}

/** The constraint rows narrowed to each truncated row's survivors (a constant: the cut has no gradient, as in llama.cpp). */
function truncatedRows(
  logits: tf.Tensor2D,
  targetTokenIds: Int32Array,
  constraints: ConstraintRows | undefined,
  truncations: ReadonlyArray<TruncationSettings | undefined>,
): ConstraintRows {
  const [rows, vocabulary] = logits.shape;
  const values = logits.dataSync();
  const bias = constraints?.bias ?? new Float32Array(rows * vocabulary);
  const allowed = constraints === undefined ? new Uint8Array(rows * vocabulary).fill(1) : Uint8Array.from(constraints.allowed);
  const row = new Float32Array(vocabulary);
  truncations.forEach((settings, index) => {
    if (settings === undefined) return;
    const offset = index * vocabulary;
    // What llama.cpp's truncation sees: logit + bias in f32, −∞ where the grammar masked.
    for (let token = 0; token < vocabulary; token++) {
      row[token] = allowed[offset + token] === 1 ? (values[offset + token] as number) + (bias[offset + token] as number) : Number.NEGATIVE_INFINITY;
    }
    const kept = truncationSurvivors(row, settings, targetTokenIds[index] as number);
    for (let token = 0; token < vocabulary; token++) allowed[offset + token] = (allowed[offset + token] as number) & (kept[token] as number);
  });
  return { allowed, bias };
}
