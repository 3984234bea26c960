/**
 * The byte-level vocabulary of project-made models: three special tokens, then
 * one token per byte, so token id = byte + 3.
 */
export const BYTE_TOKEN_OFFSET = 3;

export function bytesToTokenIds(text: string): Int32Array {
  const bytes = new TextEncoder().encode(text);
  const ids = new Int32Array(bytes.length);
  bytes.forEach((byte, index) => (ids[index] = byte + BYTE_TOKEN_OFFSET));
  return ids;
}
