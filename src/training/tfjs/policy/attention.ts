import * as tf from "@tensorflow/tfjs";
import { linear } from "./linear.js";
import { matMul } from "./mat-mul.js";
import type { PolicyConfiguration } from "./policy-configuration.js";
import type { BlockWeights } from "./policy-weights.js";

/** The constants of one forward pass over `batchSize` right-padded sequences of `length` tokens. */
export interface ForwardGeometry {
  configuration: PolicyConfiguration;
  batchSize: number;
  length: number;
  /** Rope cosines and sines of positions 0 … length − 1, `[length, 1, keyLength]`. */
  cos: tf.Tensor3D;
  sin: tf.Tensor3D;
  /** `ropeRotation`, `[keyLength, keyLength]`. */
  rotation: tf.Tensor2D;
  /**
   * 0 where a query may see a key, −∞ where it may not, `[group · length, length]`:
   * row r is the query at position r mod length (the group's heads are stacked).
   */
  causalMask: tf.Tensor2D;
}

/** Rotates `x` (`[batch · length, heads · keyLength]`) by its positions: x·cos + (x·R)·sin. */
export function applyRope(x: tf.Tensor2D, heads: number, geometry: ForwardGeometry): tf.Tensor2D {
  const { batchSize, length, configuration } = geometry;
  const width = configuration.keyLength;
  const rotated = matMul(tf.reshape<tf.Rank.R2>(x, [batchSize * length * heads, width]), geometry.rotation);
  const perHead = [batchSize, length, heads, width];
  const turned = tf.add(tf.mul(tf.reshape(x, perHead), geometry.cos), tf.mul(tf.reshape(rotated, perHead), geometry.sin));
  return tf.reshape<tf.Rank.R2>(turned, [batchSize * length, heads * width]);
}

/**
 * Causal grouped-query self-attention, as llama.cpp's `build_attn` without
 * flash attention: softmax(q·kᵀ · 1/√keyLength + mask)·v, then the output
 * projection. Each (sequence, key/value head) has its queries as the group's
 * heads stacked, `[group · length, keyLength]`. Short rows (arithmetic
 * examples, ~25–55 tokens) take one batched product over all pairs; long ones
 * a pair of two-dimensional products per pair, because tfjs-wasm multiplies
 * only rank-2 products fast (XNNPACK; rank 3 runs at ~1.2 GFLOP/s) while
 * splitting a tensor into many pairs costs more than the products of short rows.
 */
export function selfAttention(x: tf.Tensor2D, block: BlockWeights, geometry: ForwardGeometry): tf.Tensor2D {
  const { batchSize: batch, length, configuration } = geometry;
  const { headCount, headCountKv, keyLength, valueLength } = configuration;
  const group = headCount / headCountKv;
  const queries = applyRope(linear(x, block.query), headCount, geometry);
  const keys = applyRope(linear(x, block.key), headCountKv, geometry);
  const values = linear(x, block.value);

  // Head h = kvHead · group + j, as ggml broadcasts key/value head ⌊h / group⌋ to query head h.
  const stackedQueries = tf.reshape<tf.Rank.R3>(tf.transpose(tf.reshape(queries, [batch, length, headCountKv, group, keyLength]), [0, 2, 3, 1, 4]), [
    batch * headCountKv,
    group * length,
    keyLength,
  ]);
  const transposedKeys = tf.reshape<tf.Rank.R3>(tf.transpose(tf.reshape(keys, [batch, length, headCountKv, keyLength]), [0, 2, 3, 1]), [
    batch * headCountKv,
    keyLength,
    length,
  ]);
  const valueHeads = tf.reshape<tf.Rank.R3>(tf.transpose(tf.reshape(values, [batch, length, headCountKv, valueLength]), [0, 2, 1, 3]), [
    batch * headCountKv,
    length,
    valueLength,
  ]);
  // llama.cpp's kq_scale, 1.0f / sqrtf(head width), rounded as f32 is.
  const scale = Math.fround(1 / Math.fround(Math.sqrt(keyLength)));
  const attend = length <= BATCHED_ATTENTION_MAX_LENGTH ? batchedAttention : pairwiseAttention;
  const mixed = attend(stackedQueries, transposedKeys, valueHeads, scale, geometry.causalMask);
  const merged = tf.reshape<tf.Rank.R2>(tf.transpose(tf.reshape(mixed, [batch, headCountKv, group, length, valueLength]), [0, 3, 1, 2, 4]), [
    batch * length,
    headCount * valueLength,
  ]);
  return linear(merged, block.attentionOutput);
}

/**
 * Longest row that takes the batched product. Measured fwd+bwd on the small
 * preset (tfjs-wasm, 2 cores): 32 rows × 64 tokens 801 tokens/s batched vs
 * 529 pairwise; 16 × 120 785 vs 966; 4 × 250 411 vs 1,538.
 */
const BATCHED_ATTENTION_MAX_LENGTH = 64;

function batchedAttention(queries: tf.Tensor3D, transposedKeys: tf.Tensor3D, values: tf.Tensor3D, scale: number, mask: tf.Tensor2D): tf.Tensor3D {
  const scores = tf.add(tf.mul(batchMatMul(queries, transposedKeys), scale), mask);
  return batchMatMul(tf.softmax(scores) as tf.Tensor3D, values);
}

function pairwiseAttention(queries: tf.Tensor3D, transposedKeys: tf.Tensor3D, values: tf.Tensor3D, scale: number, mask: tf.Tensor2D): tf.Tensor3D {
  const keyHeads = tf.unstack(transposedKeys);
  const valueHeads = tf.unstack(values);
  return tf.stack(
    tf.unstack(queries).map((query, index) => {
      const scores = tf.add(tf.mul(matMul(query as tf.Tensor2D, keyHeads[index] as tf.Tensor2D), scale), mask);
      return matMul(tf.softmax(scores) as tf.Tensor2D, valueHeads[index] as tf.Tensor2D);
    }),
  ) as tf.Tensor3D;
}

const batchMatMulWithExplicitTransposes = tf.customGrad((...inputs) => {
  const [a, b, save] = inputs as [tf.Tensor3D, tf.Tensor3D, tf.GradSaveFunc];
  save([a, b]);
  return {
    value: tf.matMul(a, b),
    gradFunc: (dy, saved) => {
      const [savedA, savedB] = saved as [tf.Tensor3D, tf.Tensor3D];
      return [tf.matMul(dy as tf.Tensor3D, tf.transpose(savedB, [0, 2, 1])), tf.matMul(tf.transpose(savedA, [0, 2, 1]), dy as tf.Tensor3D)];
    },
  };
});
function batchMatMul(a: tf.Tensor3D, b: tf.Tensor3D): tf.Tensor3D {
  return batchMatMulWithExplicitTransposes(a, b) as tf.Tensor3D;
}
