import * as tf from "@tensorflow/tfjs";
import { matMul } from "./mat-mul.js";
import type { LinearWeights } from "./policy-weights.js";

/**
 * `x·W + scale·(x·A)·B + bias` for `x` of shape `[rows, in]`, in llama.cpp's
 * order (`build_lora_mm`, then the bias).
 */
export function linear(x: tf.Tensor2D, layer: LinearWeights): tf.Tensor2D {
  let y = matMul(x, layer.weight as tf.Tensor2D);
  if (layer.lora !== undefined) {
    const { a, b, scale } = layer.lora;
    y = tf.add(y, tf.mul(matMul(matMul(x, a as tf.Tensor2D), b as tf.Tensor2D), scale));
  }
  return layer.bias === undefined ? y : tf.add(y, layer.bias);
}
