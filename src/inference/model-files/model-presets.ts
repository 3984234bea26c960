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
}

export const ModelPresetNameSchema = z.enum(["tiny", "small", "medium"]);
export type ModelPresetName = z.infer<typeof ModelPresetNameSchema>;

/** Sizes of the project-made models, all over the 259-token byte vocabulary. */
export const MODEL_PRESETS: Readonly<Record<ModelPresetName, Readonly<ModelPreset>>> = {
  tiny: { embeddingLength: 64, blockCount: 2, headCount: 4, headCountKv: 4, feedForwardLength: 192, contextLength: 256 },
  small: { embeddingLength: 128, blockCount: 4, headCount: 4, headCountKv: 2, feedForwardLength: 384, contextLength: 256 },
  medium: { embeddingLength: 256, blockCount: 4, headCount: 4, headCountKv: 2, feedForwardLength: 768, contextLength: 512 },
};
