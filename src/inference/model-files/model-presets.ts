import { z } from "zod";

/** Hyperparameters of a project-made model. */
export interface ModelPreset {
  /** Width of the residual stream (`embedding_length`). */
  embeddingLength: number;
  /** Transformer blocks. */
  blockCount: number;
  /** Query heads. */
  headCount: number;
  /** Key/value heads (grouped-query attention when fewer than `headCount`). */
  headCountKv: number;
  /** Hidden width of the SwiGLU feed-forward. */
  feedForwardLength: number;
  /** Training context length in tokens. */
  contextLength: number;
  /** Tokens of the vocabulary: the 259 byte tokens, padded with unused ones to this size when given (a real model's output-layer size). */
  vocabularySize?: number;
}

export const ModelPresetNameSchema = z.enum(["tiny", "small", "medium", "qwen2-0.5b"]);
export type ModelPresetName = z.infer<typeof ModelPresetNameSchema>;

/**
 * Sizes of the project-made models, over the 259-token byte vocabulary.
 * `qwen2-0.5b` is Qwen2.5-0.5B's shape (358 M parameters in its blocks) with
 * the byte vocabulary padded to its 151,936 tokens, so that the output layer
 * is real size too: a benchmark model for the ggml trainer (make it with
 * `--arch qwen2`, q8_0 weights), too large for the tfjs trainer; its context is
 * the 512-token sequences it is benchmarked on.
 */
export const MODEL_PRESETS: Readonly<Record<ModelPresetName, Readonly<ModelPreset>>> = {
  tiny: { embeddingLength: 64, blockCount: 2, headCount: 4, headCountKv: 4, feedForwardLength: 192, contextLength: 256 },
  small: { embeddingLength: 128, blockCount: 4, headCount: 4, headCountKv: 2, feedForwardLength: 384, contextLength: 256 },
  medium: { embeddingLength: 256, blockCount: 4, headCount: 4, headCountKv: 2, feedForwardLength: 768, contextLength: 512 },
  "qwen2-0.5b": { embeddingLength: 896, blockCount: 24, headCount: 14, headCountKv: 2, feedForwardLength: 4864, contextLength: 512, vocabularySize: 151_936 },
};
