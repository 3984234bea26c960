/** FNV-1a 32-bit offset basis: the hash of no bytes. */
export const FNV1A_OFFSET_BASIS = 0x811c9dc5;

/**
 * FNV-1a 32-bit over `bytes[start, end)` (end is exclusive), continuing from
 * `hash` — pass a previous result to hash a namespace and then the bytes.
 */
export function fnv1aBytes(bytes: Uint8Array, start = 0, end = bytes.length, hash = FNV1A_OFFSET_BASIS): number {
  let value = hash;
  for (let index = start; index < end; index++) {
    value ^= bytes[index] as number;
    value = Math.imul(value, 0x01000193) >>> 0;
  }
  return value >>> 0;
}

/** FNV-1a 32-bit of the UTF-8 bytes of `text`. */
export function fnv1aText(text: string, hash = FNV1A_OFFSET_BASIS): number {
  return fnv1aBytes(new TextEncoder().encode(text), 0, undefined, hash);
}
