import * as tf from "@tensorflow/tfjs";

export interface ClippedGradients {
  gradients: tf.NamedTensorMap;
  /** Global L2 norm before clipping (logged every step). */
  norm: number;
}

/** Scales all gradients together so their global L2 norm is at most `maxNorm` (as torch's clip_grad_norm_). */
export function clipGradientNorm(gradients: tf.NamedTensorMap, maxNorm: number): ClippedGradients {
  const norm = tf.tidy(() => {
    const squares = Object.values(gradients).map((gradient) => tf.sum(tf.square(gradient)));
    return squares.length === 0 ? 0 : Math.sqrt((tf.addN(squares).dataSync()[0] as number));
  });
  const scale = Math.min(1, maxNorm / (norm + 1e-6));
  if (scale === 1) return { gradients, norm };
  const scaled: tf.NamedTensorMap = {};
  for (const [name, gradient] of Object.entries(gradients)) {
    scaled[name] = tf.mul(gradient, scale);
    gradient.dispose();
  }
  return { gradients: scaled, norm };
}
