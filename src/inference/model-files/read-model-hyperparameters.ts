import type { ModelHyperparameters } from "./expected-model-tensors.js";
import type { MetadataFields } from "./metadata-fields.js";
import type { ModelArchitecture } from "./model-architecture.js";

/** llama.cpp's LLAMA_MAX_LAYERS. */
const MAXIMUM_BLOCKS = 512;

/**
 * Reads and checks the `<architecture>.*` hyperparameters the way llama.cpp's
 * `load_hparams` does for llama and qwen2, refusing values that would make it
 * abort: missing or zero sizes, head counts that do not divide, a rope width
 * other than the head width.
 */
export function readModelHyperparameters(fields: MetadataFields, architecture: ModelArchitecture, vocabularySize: number): ModelHyperparameters {
  const key = (name: string): string => `${architecture}.${name}`;
  const contextLength = fields.count(key("context_length"), "training context length in tokens");
  const embeddingLength = fields.count(key("embedding_length"), "width of the residual stream");
  const blockCount = fields.count(key("block_count"), "number of transformer blocks");
  if (blockCount > MAXIMUM_BLOCKS) fields.fail(key("block_count"), `is ${blockCount}; llama.cpp supports at most ${MAXIMUM_BLOCKS}`);
  const feedForwardLength = fields.count(key("feed_forward_length"), "hidden width of the feed-forward");
  const headCount = fields.count(key("attention.head_count"), "number of attention heads");
  const explicitKeyLength = fields.count(key("attention.key_length"), "width of one key head", { optional: true });
  const explicitValueLength = fields.count(key("attention.value_length"), "width of one value head", { optional: true });
  if ((explicitKeyLength === undefined || explicitValueLength === undefined) && embeddingLength % headCount !== 0) {
    fields.fail(key("attention.head_count"), `is ${headCount}, which does not divide embedding_length ${embeddingLength}`);
  }
  const keyLength = explicitKeyLength ?? embeddingLength / headCount;
  const valueLength = explicitValueLength ?? embeddingLength / headCount;
  // llama.cpp defaults the KV head count to the head count (no grouped-query attention).
  const headCountKv = fields.count(key("attention.head_count_kv"), "number of key/value heads", { optional: true }) ?? headCount;
  if (headCount % headCountKv !== 0) {
    fields.fail(key("attention.head_count_kv"), `is ${headCountKv}, which does not divide attention.head_count ${headCount}`);
  }
  const ropeDimensions = fields.count(key("rope.dimension_count"), "rotary dimensions per head", { optional: true });
  if (ropeDimensions !== undefined && ropeDimensions !== keyLength) {
    fields.fail(key("rope.dimension_count"), `is ${ropeDimensions}; llama.cpp requires it to equal the head width ${keyLength}`);
  }
  fields.float32(key("rope.freq_base"), "rope base frequency", { optional: true });
  fields.float32(key("attention.layer_norm_rms_epsilon"), "epsilon of the RMS norms");

  // Dense llama files may say expert_count = 0; only a positive count means mixture-of-experts.
  const expertCount = architecture === "llama" ? (fields.optionalUint32(key("expert_count"), "mixture-of-experts experts per layer") ?? 0) : 0;
  if (expertCount > 0) {
    const used = fields.count(key("expert_used_count"), "experts used per token");
    if (used > expertCount) fields.fail(key("expert_used_count"), `is ${used}, more than expert_count ${expertCount}`);
  }
  return {
    architecture,
    vocabularySize,
    contextLength,
    embeddingLength,
    blockCount,
    feedForwardLength,
    headCount,
    headCountKv,
    keyLength,
    valueLength,
    expertCount,
  };
}
