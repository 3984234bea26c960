import { GgufReader } from "../../gguf/gguf-reader.js";
import { isByteVocabulary } from "./byte-vocabulary.js";

/** A model file's vocabulary, as far as selfplay's byte-token code needs to know it. */
export interface VocabularyDescription {
  /** Tokens in `tokenizer.ggml.tokens`. */
  size: number;
  /** Whether it is the byte vocabulary of project-made models (`isByteVocabulary`): text is then one token a byte. */
  byteVocabulary: boolean;
}

/** Reads `path`'s GGUF header (not its weights) and says whether its vocabulary is the project's byte vocabulary. */
export async function describeVocabulary(path: string): Promise<VocabularyDescription> {
  const reader = await GgufReader.open(path);
  try {
    const entry = reader.metadata.get("tokenizer.ggml.tokens");
    const tokens = entry?.type === "array" && entry.itemType === "string" ? entry.value : [];
    return { size: tokens.length, byteVocabulary: isByteVocabulary(tokens) };
  } finally {
    await reader.close();
  }
}
