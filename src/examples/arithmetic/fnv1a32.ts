/** The FNV-1a 32-bit hash of the UTF-8 bytes of `text` (offset basis 2166136261, prime 16777619). */
export function fnv1a32(text: string): number {
  let hash = 0x811c9dc5;
  for (const byte of new TextEncoder().encode(text)) {
    hash ^= byte;
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash >>> 0;
}
