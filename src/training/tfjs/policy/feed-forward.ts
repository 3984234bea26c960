import * as tf from "@tensorflow/tfjs";
import { linear } from "./linear.js";
import type { BlockWeights } from "./policy-weights.js";

/** SwiGLU: down(silu(gate(x)) ⊙ up(x)), llama.cpp's `LLM_FFN_SILU, LLM_FFN_PAR`. */
export function feedForward(x: tf.Tensor2D, block: BlockWeights): tf.Tensor2D {
  const gate = linear(x, block.gate);
  const silu = tf.mul(gate, tf.sigmoid(gate));
  return linear(tf.mul(silu, linear(x, block.up)) as tf.Tensor2D, block.down);
}
