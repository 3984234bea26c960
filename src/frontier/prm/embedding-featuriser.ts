import type { Featuriser } from "./featuriser.js";
import type { EmbeddingSettings } from "./featuriser-settings.js";
import type { PrmState } from "./prm-state.js";

/** Anything that embeds texts as fixed-width vectors (src/inference's LlamaTextEmbedder is one). */
export interface TextEmbedder {
  readonly dimensions: number;
  embed(texts: readonly string[]): Promise<Float32Array[]>;
}

/** The text of a state the embedding model reads. */
export function stateText(state: PrmState): string {
  return `Cluster: ${state.cluster}\nTask: ${state.task}\nSolution so far: ${state.prefix}`;
}

/**
 * Features from the policy model's own embeddings of the state's text,
 * L2-normalised so the PRM sees directions, not the model's activation scale.
 */
export class EmbeddingFeaturiser implements Featuriser {
  readonly settings: EmbeddingSettings;

  constructor(
    private readonly embedder: TextEmbedder,
    /** The model the embedder loaded, recorded in `prm.json`. */
    modelPath: string,
  ) {
    this.settings = { kind: "embedding", model: modelPath, dimensions: embedder.dimensions };
  }

  get dimensions(): number {
    return this.settings.dimensions;
  }

  async featurise(states: readonly PrmState[]): Promise<Float32Array[]> {
    const embeddings = await this.embedder.embed(states.map(stateText));
    return embeddings.map((embedding) => {
      let squares = 0;
      for (const value of embedding) squares += value * value;
      const scale = squares > 0 ? 1 / Math.sqrt(squares) : 0;
      return embedding.map((value) => value * scale);
    });
  }
}
