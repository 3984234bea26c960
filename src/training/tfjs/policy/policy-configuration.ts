import type { ModelHyperparameters } from "../../../inference/model-files/expected-model-tensors.js";

/**
 * How a policy's forward pass is shaped: the model file's hyperparameters
 * (dense models only, so no experts), plus what llama.cpp's `llm_build_llama` /
 * `llm_build_qwen2` take from the metadata besides shapes. Query head h reads
 * key/value head ⌊h / (headCount / headCountKv)⌋.
 */
export interface PolicyConfiguration extends Omit<ModelHyperparameters, "expertCount"> {
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
