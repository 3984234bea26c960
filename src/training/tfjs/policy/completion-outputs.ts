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
import { scoreLogits } from "./score-logits.js";

export interface CompletionOutputsOptions {
  /** Also return the entropy of softmax(logits / T) at every completion token. Default false. */
  entropy?: boolean;
  /** Also return the final hidden states (after `output_norm`) that predict each completion token, e.g. for a value head. Default false. */
  hiddenStates?: boolean;
}

/** Per completion token, flat, sequence after sequence; every tensor is differentiable with respect to the trainable weights. */
export interface CompletionOutputs {
  /** log softmax(logits / T) of the token, `[tokens]`; for a constrained sequence, of the masked and biased softmax the engine sampled from. */
  logprobs: tf.Tensor1D;
  /** Entropy in nats of softmax(logits / T) where the token was sampled, `[tokens]`; when asked for. */
  entropy: tf.Tensor1D | undefined;
  /** The normalised final hidden state the token was predicted from, `[tokens, embedding]`; when asked for. */
  hiddenStates: tf.Tensor2D | undefined;
}

/**
 * The forward pass, following llama.cpp's `llm_build_llama` / `llm_build_qwen2`
 * step by step: embed; per block RMSNorm → attention → residual, RMSNorm →
 * SwiGLU → residual; final RMSNorm and output projection, only at the
 * positions that predict a completion token. Call it inside
 * `tf.variableGrads` to train, or `tf.tidy` to score.
 */
export function completionOutputs(
  weights: PolicyWeights,
  configuration: PolicyConfiguration,
  rope: { tables: RopeTables; rotation: Float32Array },
  packed: PackedSequences,
  options: CompletionOutputsOptions = {},
): CompletionOutputs {
  const scored = packed.targetTokenIds.length;
  if (scored === 0) {
    return {
      logprobs: tf.zeros([0]),
      entropy: options.entropy === true ? tf.zeros([0]) : undefined,
      hiddenStates: options.hiddenStates === true ? tf.zeros([0, configuration.embeddingLength]) : undefined,
    };
  }
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
  const { logprobs, entropy } = scoreLogits(logits, packed.temperatures, packed.targetTokenIds, options.entropy === true, packed.constraints, packed.truncations);
  return { logprobs, entropy, hiddenStates: options.hiddenStates === true ? predicting : undefined };
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
