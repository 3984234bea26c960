import { BYTE_TOKEN_OFFSET } from "../byte-tokens.js";

/** Special tokens, at ids 0, 1, 2; byte b is token b + BYTE_TOKEN_OFFSET (3). */
export const SPECIAL_TOKENS = { padding: "<pad>", beginning: "<s>", end: "</s>" } as const;
export const PADDING_TOKEN_ID = 0;
export const BEGINNING_OF_SEQUENCE_TOKEN_ID = 1;
export const END_OF_SEQUENCE_TOKEN_ID = 2;
/** 3 specials + 256 bytes. */
export const BYTE_VOCABULARY_SIZE = BYTE_TOKEN_OFFSET + 256;

/** llama.cpp token types (`llama_token_type`) as GGUF's `tokenizer.ggml.token_type` stores them. */
const TOKEN_TYPE_NORMAL = 1;
const TOKEN_TYPE_CONTROL = 3;
const TOKEN_TYPE_UNUSED = 5;

/**
 * The byte-level vocabulary of project-made models, as GGUF tokenizer arrays.
 * Byte tokens are spelled with GPT-2's byte-to-unicode table, because llama.cpp's
 * "gpt2" tokenizer maps text bytes through that table before looking tokens up;
 * with no merges every byte then stays its own token. A `size` above 259 pads
 * it with unused tokens `[PAD<id>]`, which the byte text never produces.
 */
export function byteVocabulary(size = BYTE_VOCABULARY_SIZE): { tokens: string[]; tokenTypes: number[] } {
  const tokens: string[] = [SPECIAL_TOKENS.padding, SPECIAL_TOKENS.beginning, SPECIAL_TOKENS.end];
  const tokenTypes: number[] = [TOKEN_TYPE_CONTROL, TOKEN_TYPE_CONTROL, TOKEN_TYPE_CONTROL];
  const characters = gpt2ByteCharacters();
  for (let byte = 0; byte < 256; byte++) {
    tokens.push(characters[byte] as string);
    tokenTypes.push(TOKEN_TYPE_NORMAL);
  }
  // Padding past the bytes, named and typed as llama.cpp's converter pads Qwen's vocabulary.
  for (let id = tokens.length; id < size; id++) {
    tokens.push(`[PAD${id}]`);
    tokenTypes.push(TOKEN_TYPE_UNUSED);
  }
  return { tokens, tokenTypes };
}

/**
 * Whether `tokens` (a file's `tokenizer.ggml.tokens`) are this byte vocabulary, at any padded size: then text is
 * one token a byte (`bytesToTokenIds`), as the arithmetic corpus and the byte labels assume. Any other vocabulary —
 * a real model's BPE or SentencePiece one — gives those ids other meanings.
 */
export function isByteVocabulary(tokens: readonly string[]): boolean {
  if (tokens.length < BYTE_VOCABULARY_SIZE) return false;
  const expected = byteVocabulary(tokens.length).tokens;
  return tokens.every((token, id) => token === expected[id]);
}

/**
 * GPT-2's `bytes_to_unicode`: printable Latin-1 bytes stand for themselves; the
 * other 68 bytes, in order, become U+0100 onwards, so no byte is whitespace or
 * a control character.
 */
export function gpt2ByteCharacters(): string[] {
  const printable = (byte: number): boolean =>
    (byte >= 0x21 && byte <= 0x7e) || (byte >= 0xa1 && byte <= 0xac) || (byte >= 0xae && byte <= 0xff);
  const characters: string[] = [];
  let next = 0x100;
  for (let byte = 0; byte < 256; byte++) characters.push(String.fromCodePoint(printable(byte) ? byte : next++));
  return characters;
}
