import * as tf from "@tensorflow/tfjs";
import { selfAttention, type ForwardGeometry } from "./attention.js";
import { feedForward } from "./feed-forward.js";
import { gatherRows } from "./gather-rows.js";
import { linear } from "./linear.js";
import { matMul } from "./mat-mul.js";
import type { PackedSequences } from "./pack-sequences.js";
import type { PolicyConfiguration } from "./policy-configuration.js";
import type { PolicyWeights } from "./policy-weights.js";
import { rmsNorm } from "./rms-norm.js";
import type { RopeTables } from "./rope-tables.js";

/**
 * The forward pass: the log-probability of every completion token of `packed`
 * under softmax(logits / temperature), flat in the order of
 * `packed.targetTokenIds`. Differentiable with respect to the weights' trainable
 * variables: call it inside `tf.variableGrads` to train, or `tf.tidy` to score.
 *
 * It follows llama.cpp's `llm_build_llama` / `llm_build_qwen2` step by step:
 * embed; per block RMSNorm → attention → residual, RMSNorm → SwiGLU → residual;
 * final RMSNorm and output projection, only at the positions that predict a
 * completion token.
 */
export function completionLogprobs(
  weights: PolicyWeights,
  configuration: PolicyConfiguration,
  rope: { tables: RopeTables; rotation: Float32Array },
  packed: PackedSequences,
): tf.Tensor1D {
  const scored = packed.targetTokenIds.length;
  if (scored === 0) return tf.zeros([0]);
  const epsilon = configuration.rmsNormEpsilon;
  const geometry = forwardGeometry(configuration, rope, packed);

  let hidden = gatherRows(weights.tokenEmbedding as tf.Tensor2D, tf.tensor1d(packed.tokenIds, "int32"));
  for (const block of weights.blocks) {
    hidden = tf.add(hidden, selfAttention(rmsNorm(hidden, block.attentionNorm, epsilon), block, geometry));
    hidden = tf.add(hidden, feedForward(rmsNorm(hidden, block.feedForwardNorm, epsilon), block));
  }

  const predicting = rmsNorm(gatherRows(hidden, tf.tensor1d(packed.predictingRows, "int32")), weights.outputNorm, epsilon);
  const logits =
    weights.output === "tied"
      ? matMul(predicting, tf.transpose(weights.tokenEmbedding) as tf.Tensor2D)
      : linear(predicting, weights.output);
  const logprobs = tf.logSoftmax(tf.div(logits, tf.tensor2d(packed.temperatures, [scored, 1])));

  // Pick each row's target from the flattened [scored · vocabulary] logprobs.
  const vocabulary = configuration.vocabularySize;
  const picks = Int32Array.from(packed.targetTokenIds, (target, index) => index * vocabulary + target);
  return tf.reshape(gatherRows(tf.reshape(logprobs, [scored * vocabulary, 1]), tf.tensor1d(picks, "int32")), [scored]);
}

function forwardGeometry(
  configuration: PolicyConfiguration,
  rope: { tables: RopeTables; rotation: Float32Array },
  packed: PackedSequences,
): ForwardGeometry {
  const { length, batchSize } = packed;
  const width = configuration.keyLength;
  const group = configuration.headCount / configuration.headCountKv;
  const mask = new Float32Array(group * length * length);
  for (let row = 0; row < group * length; row++) {
    const position = row % length;
    mask.fill(-Infinity, row * length + position + 1, (row + 1) * length);
  }
  return {
    configuration,
    batchSize,
    length,
    cos: tf.tensor3d(rope.tables.cos.subarray(0, length * width), [length, 1, width]),
    sin: tf.tensor3d(rope.tables.sin.subarray(0, length * width), [length, 1, width]),
    rotation: tf.tensor2d(rope.rotation, [width, width]),
    causalMask: tf.tensor2d(mask, [group * length, length]),
  };
}
