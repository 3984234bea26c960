import { z } from "zod";

/** The no-model featuriser: hashed byte n-grams (see HashedNgramFeaturiser). */
export const HashedNgramSettingsSchema = z.object({
  kind: z.literal("hashed-ngram"),
  /** Buckets the n-grams hash into: the PRM's input width. Default 256 (see PrmTrainingConfigurationSchema). */
  dimensions: z.number().int().min(8).max(1 << 20).default(256),
  /** Longest n-gram, in bytes: n runs 1..maxNgram. Default 3. */
  maxNgram: z.number().int().min(1).max(8).default(3),
});

/** Embeddings of the state's text from a GGUF model's embedding context. */
export const EmbeddingSettingsSchema = z.object({
  kind: z.literal("embedding"),
  /** The GGUF model whose embeddings are the features (normally the policy model). */
  model: z.string().min(1),
  /** The model's embedding width, recorded so a PRM refuses another model's features. */
  dimensions: z.number().int().positive(),
});

/** How a state becomes the PRM's input vector; saved in `prm.json` so scoring featurises as training did. */
export const FeaturiserSettingsSchema = z.discriminatedUnion("kind", [HashedNgramSettingsSchema, EmbeddingSettingsSchema]);
export type FeaturiserSettings = z.infer<typeof FeaturiserSettingsSchema>;
export type HashedNgramSettings = z.infer<typeof HashedNgramSettingsSchema>;
export type EmbeddingSettings = z.infer<typeof EmbeddingSettingsSchema>;
