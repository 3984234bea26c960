import type { MetadataFields } from "./metadata-fields.js";

/** Tokenizer models selfplay hands to llama.cpp: "gpt2" (byte-level BPE) and "llama" (SentencePiece). */
export const SUPPORTED_TOKENIZER_MODELS = ["gpt2", "llama"] as const;

/**
 * Checks the `tokenizer.ggml.*` keys against the failures that abort llama.cpp
 * rather than fail the load: duplicate token strings, a SentencePiece
 * vocabulary without its 256 byte tokens, and arrays of the wrong type.
 * Returns the vocabulary size (the token count).
 */
export function validateTokenizerMetadata(fields: MetadataFields): { tokenizerModel: string; vocabularySize: number } {
  const tokenizerModel = fields.string("tokenizer.ggml.model");
  if (!(SUPPORTED_TOKENIZER_MODELS as readonly string[]).includes(tokenizerModel)) {
    fields.fail("tokenizer.ggml.model", `is "${tokenizerModel}"; supported: ${SUPPORTED_TOKENIZER_MODELS.join(", ")}`);
  }
  const tokens = fields.array("tokenizer.ggml.tokens", "string");
  if (tokens.length === 0) fields.fail("tokenizer.ggml.tokens", "is empty; a model needs a vocabulary");
  const seen = new Map<string, number>();
  tokens.forEach((token, id) => {
    const earlier = seen.get(token);
    if (earlier !== undefined) fields.fail("tokenizer.ggml.tokens", `token ${id} repeats token ${earlier} (${JSON.stringify(token)}); llama.cpp needs unique tokens`);
    seen.set(token, id);
  });
  for (const key of ["tokenizer.ggml.token_type", "tokenizer.ggml.scores"] as const) {
    const values = fields.array(key, key.endsWith("token_type") ? "int32" : "float32", { optional: true });
    if (values !== undefined && values.length !== tokens.length) {
      fields.fail(key, `has ${values.length} entries for ${tokens.length} tokens; it needs one per token`);
    }
  }
  if (tokenizerModel === "gpt2") fields.array("tokenizer.ggml.merges", "string");
  if (tokenizerModel === "llama") {
    for (let byte = 0; byte < 256; byte++) {
      const token = `<0x${byte.toString(16).toUpperCase().padStart(2, "0")}>`;
      if (!seen.has(token)) fields.fail("tokenizer.ggml.tokens", `has no byte token ${token}; a "llama" (SentencePiece) vocabulary needs all 256`);
    }
  }
  for (const role of ["bos", "eos", "eot", "eom", "unknown", "seperator", "separator", "padding", "cls", "mask"]) {
    const key = `tokenizer.ggml.${role}_token_id`;
    const id = fields.optionalUint32(key, "a token id");
    if (id !== undefined && id >= tokens.length) fields.fail(key, `is ${id}, but the vocabulary has ${tokens.length} tokens`);
  }
  return { tokenizerModel, vocabularySize: tokens.length };
}
