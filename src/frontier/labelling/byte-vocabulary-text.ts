import { InvalidInputError } from "../../core/errors/index.js";
import { BYTE_TOKEN_OFFSET } from "../../inference/byte-tokens.js";

/**
 * The text of token ids of the byte vocabulary of project-made models (and
 * of ScriptedInferenceClient): id − 3 is a byte, ids below 3 are special
 * tokens and write nothing. Labels need no model file this way; an id past
 * the vocabulary means another model wrote the tokens.
 */
export function byteVocabularyText(tokenIds: readonly number[]): string {
  const bytes = new Uint8Array(tokenIds.length);
  let length = 0;
  for (const id of tokenIds) {
    if (id >= BYTE_TOKEN_OFFSET + 256) {
      throw new InvalidInputError("--model", `the model that wrote these rollouts, for its tokenizer (token id ${id} is outside the byte vocabulary of project-made models)`);
    }
    if (id >= BYTE_TOKEN_OFFSET) bytes[length++] = id - BYTE_TOKEN_OFFSET;
  }
  return new TextDecoder().decode(bytes.subarray(0, length));
}
