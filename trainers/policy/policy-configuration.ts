import type { ModelArchitecture } from "../../src/inference/model-files/model-architecture.js";

/**
 * How a policy's forward pass is shaped: the model file's hyperparameters, in
 * the terms llama.cpp's `llm_build_llama` / `llm_build_qwen2` use them.
 */
export interface PolicyConfiguration {
  architecture: ModelArchitecture;
  /** Tokens in the vocabulary: the width of the logits. */
  vocabularySize: number;
  /** Training context in tokens; positions run from 0 to contextLength − 1. */
  contextLength: number;
  /** Width of the residual stream. */
  embeddingLength: number;
  blockCount: number;
  /** Hidden width of the SwiGLU feed-forward. */
  feedForwardLength: number;
  /** Query heads. */
  headCount: number;
  /** Key/value heads; query head h reads key/value head ⌊h / (headCount / headCountKv)⌋. */
  headCountKv: number;
  /** Width of one query or key head. */
  keyLength: number;
  /** Width of one value head. */
  valueLength: number;
  /**
   * "normal" (llama.cpp's rope type 0, llama): adjacent pairs (2i, 2i+1) rotate
   * together. "neox" (qwen2): pairs (i, i + keyLength/2).
   */
  ropeType: "normal" | "neox";
  /** Pair i turns by position · ropeFrequencyBase^(−2i/keyLength) radians (before rope_freqs). */
  ropeFrequencyBase: number;
  /** Epsilon inside every RMS norm's square root. */
  rmsNormEpsilon: number;
}
