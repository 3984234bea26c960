import { LlamaTextEmbedder } from "../../inference/embeddings/llama-text-embedder.js";
import { createFeaturiser } from "./create-featuriser.js";
import { EmbeddingFeaturiser } from "./embedding-featuriser.js";
import type { Featuriser } from "./featuriser.js";
import type { FeaturiserSettings } from "./featuriser-settings.js";

/** A featuriser and what to release when done with it (the embedding model, when it loaded one). */
export interface OpenFeaturiser {
  featuriser: Featuriser;
  dispose: () => Promise<void>;
}

/** Embeddings of `modelPath` (node-llama-cpp's embedding context) as features. */
export async function openEmbeddingFeaturiser(modelPath: string): Promise<OpenFeaturiser> {
  const embedder = await LlamaTextEmbedder.create({ modelPath });
  return { featuriser: new EmbeddingFeaturiser(embedder, modelPath), dispose: () => embedder.dispose() };
}

/**
 * The featuriser a saved PRM was trained with: hashed n-grams from its
 * settings, or the embeddings of its model (`policy` when the model moved).
 * `source` names the settings' file in errors.
 */
export async function openSavedFeaturiser(settings: FeaturiserSettings, policy: string | undefined, source: string): Promise<OpenFeaturiser> {
  const open = settings.kind === "embedding" ? await openEmbeddingFeaturiser(policy ?? settings.model) : undefined;
  try {
    return { featuriser: createFeaturiser(settings, open?.featuriser, source), dispose: open?.dispose ?? (async () => undefined) };
  } catch (error) {
    await open?.dispose();
    throw error;
  }
}
