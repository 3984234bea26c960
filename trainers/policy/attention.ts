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
 * projection. Each (sequence, key/value head) is one pair of two-dimensional
 * products whose queries are the group's heads stacked, `[group · length,
 * keyLength]`: tfjs-wasm multiplies only rank-2 products fast, and slicing a
 * big rank-3 tensor apart copies all of it, so the scores are never batched.
 */
export function selfAttention(x: tf.Tensor2D, block: BlockWeights, geometry: ForwardGeometry): tf.Tensor2D {
  const { batchSize: batch, length, configuration } = geometry;
  const { headCount, headCountKv, keyLength, valueLength } = configuration;
  const group = headCount / headCountKv;
  const queries = applyRope(linear(x, block.query), headCount, geometry);
  const keys = applyRope(linear(x, block.key), headCountKv, geometry);
  const values = linear(x, block.value);

  // Head h = kvHead · group + j, as ggml broadcasts key/value head ⌊h / group⌋ to query head h.
  const stackedQueries = tf.unstack(tf.reshape(tf.transpose(tf.reshape(queries, [batch, length, headCountKv, group, keyLength]), [0, 2, 3, 1, 4]), [
    batch * headCountKv,
    group * length,
    keyLength,
  ]));
  const transposedKeys = tf.unstack(tf.reshape(tf.transpose(tf.reshape(keys, [batch, length, headCountKv, keyLength]), [0, 2, 3, 1]), [
    batch * headCountKv,
    keyLength,
    length,
  ]));
  const valueHeads = tf.unstack(tf.reshape(tf.transpose(tf.reshape(values, [batch, length, headCountKv, valueLength]), [0, 2, 1, 3]), [
    batch * headCountKv,
    length,
    valueLength,
  ]));
  // llama.cpp's kq_scale, 1.0f / sqrtf(head width), rounded as f32 is.
  const scale = Math.fround(1 / Math.fround(Math.sqrt(keyLength)));
  const mixed = stackedQueries.map((query, index) => {
    const scores = tf.add(tf.mul(matMul(query as tf.Tensor2D, transposedKeys[index] as tf.Tensor2D), scale), geometry.causalMask);
    return matMul(tf.softmax(scores) as tf.Tensor2D, valueHeads[index] as tf.Tensor2D);
  });
  const merged = tf.reshape<tf.Rank.R2>(tf.transpose(tf.reshape(tf.stack(mixed), [batch, headCountKv, group, length, valueLength]), [0, 3, 1, 2, 4]), [
    batch * length,
    headCount * valueLength,
  ]);
  return linear(merged, block.attentionOutput);
}
