import type { PackedSequences } from "./pack-sequences.js";
import type { PolicyConfiguration } from "./policy-configuration.js";

/**
 * A generous estimate of the f32 bytes a forward pass over `packed` keeps
 * alive (tfjs frees intermediates only when the enclosing tidy or gradient
 * computation ends), doubled when gradients are taken. Used to refuse a batch
 * before it exhausts the wasm heap, which cannot be recovered from.
 */
export function estimateForwardBytes(configuration: PolicyConfiguration, packed: PackedSequences, withGradients: boolean): number {
  const { embeddingLength: embedding, feedForwardLength, headCount, headCountKv, keyLength, valueLength, blockCount, vocabularySize } = configuration;
  const tokens = packed.batchSize * packed.length;
  const projections = headCount * keyLength + headCountKv * (keyLength + valueLength) + headCount * valueLength;
  // Per token and block: norms and residuals (~14 × width), projections with bias, rope and head transposes (~5 ×), SwiGLU (~6 × hidden).
  const perTokenPerBlock = 14 * embedding + 5 * projections + 6 * feedForwardLength;
  // Scores, scaled, masked and softmaxed: four [heads, length, length] tensors per sequence.
  const attention = 4 * packed.batchSize * headCount * packed.length * packed.length;
  const logits = 4 * packed.targetTokenIds.length * vocabularySize;
  const floats = blockCount * (tokens * perTokenPerBlock + attention) + logits + 2 * tokens * embedding;
  return floats * 4 * (withGradients ? 2 : 1);
}
