/** Lower-case, whitespace collapsed: what near-duplicate detection compares. */
export function normalizeRiddle(text: string): string {
  return text.toLowerCase().replace(/\s+/g, " ").trim();
}

function trigrams(text: string): Set<string> {
  const padded = `  ${normalizeRiddle(text)} `;
  const grams = new Set<string>();
  for (let index = 0; index + 3 <= padded.length; index++) grams.add(padded.slice(index, index + 3));
  return grams;
}

/** Jaccard similarity of the two texts' character-trigram sets (1 = the same after normalising). */
export function riddleSimilarity(a: string, b: string): number {
  const left = trigrams(a);
  const right = trigrams(b);
  let shared = 0;
  for (const gram of left) if (right.has(gram)) shared += 1;
  const union = left.size + right.size - shared;
  return union === 0 ? 1 : shared / union;
}
