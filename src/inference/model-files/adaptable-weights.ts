import { expectedModelTensors, type ModelHyperparameters } from "./expected-model-tensors.js";
import type { ModelArchitecture } from "./model-architecture.js";

/** A base-model matrix a LoRA adapter can target. */
export interface AdaptableWeight {
  /** Full GGUF name, e.g. `blk.0.attn_q.weight`. */
  name: string;
  /** Columns of the row-major `[out, in]` matrix: GGUF `dims[0]`. */
  inputLength: number;
  /** Rows of the row-major `[out, in]` matrix: GGUF `dims[1]`. */
  outputLength: number;
}

/** What an adapter is checked against: the base's architecture and its adaptable matrices by name. */
export interface LoraBase {
  architecture: ModelArchitecture;
  weights: ReadonlyMap<string, AdaptableWeight>;
}

/** Adapters on it are refused: llama.cpp reads them transposed, and a tied output projection shares the name. */
export const TOKEN_EMBEDDING_NAME = "token_embd.weight";

/**
 * The matrices of a model with these hyperparameters that llama.cpp multiplies
 * through `build_lora_mm`, where adapters apply: every two-dimensional weight
 * but the token embedding. `output.weight` is listed though a tied model lacks
 * it; `readLoraBase` keeps only the matrices a file has.
 */
export function adaptableWeights(hyperparameters: ModelHyperparameters): Map<string, AdaptableWeight> {
  const weights = new Map<string, AdaptableWeight>();
  for (const { name, dims } of expectedModelTensors(hyperparameters)) {
    if (dims.length !== 2 || name === TOKEN_EMBEDDING_NAME) continue;
    weights.set(name, { name, inputLength: dims[0] as number, outputLength: dims[1] as number });
  }
  return weights;
}
