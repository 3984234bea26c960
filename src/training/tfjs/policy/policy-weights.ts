import type * as tf from "@tensorflow/tfjs";

/**
 * A LoRA pair on one linear layer, in compute layout: the layer adds
 * `scale · (x·a)·b`, i.e. W' = W + scale·B·A with the adapter's row-major
 * A `[rank, in]` and B `[out, rank]`.
 */
export interface LoraFactors {
  /** Aᵀ, `[in, rank]`. */
  a: tf.Variable;
  /** Bᵀ, `[rank, out]`. */
  b: tf.Variable;
  /** alpha / rank, in float32 as llama.cpp computes it. */
  scale: number;
}

/** One linear layer: y = x·weight + scale·(x·a)·b + bias. */
export interface LinearWeights {
  /** The GGUF weight transposed to `[in, out]`, so the forward pass is a plain matMul. */
  weight: tf.Variable;
  bias: tf.Variable | undefined;
  lora: LoraFactors | undefined;
}

export interface BlockWeights {
  attentionNorm: tf.Variable;
  query: LinearWeights;
  key: LinearWeights;
  value: LinearWeights;
  attentionOutput: LinearWeights;
  feedForwardNorm: tf.Variable;
  gate: LinearWeights;
  up: LinearWeights;
  down: LinearWeights;
}

/** Every weight of a policy, as tfjs variables. */
export interface PolicyWeights {
  /** `token_embd.weight` as stored, `[vocabulary, embedding]`. */
  tokenEmbedding: tf.Variable;
  blocks: BlockWeights[];
  outputNorm: tf.Variable;
  /** `output.weight`, or "tied" when the output projection reuses the token embedding. */
  output: LinearWeights | "tied";
  /** `rope_freqs.weight` (Llama 3): per-pair divisors of the rope angle; a constant. */
  ropeFrequencyFactors: Float32Array | undefined;
  /** Every variable by its GGUF tensor name (`blk.0.attn_q.weight`, `blk.0.attn_q.weight.lora_a`, …). */
  variables: ReadonlyMap<string, tf.Variable>;
}
