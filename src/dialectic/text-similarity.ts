/** Lower case, letters and digits only, single spaces: what a reworded copy keeps of its original. */
export function normalizeText(text: string): string {
  return text
    .normalize("NFKC")
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim();
}

/**
 * How alike two texts are, from 0 to 1: the Dice coefficient of the character
 * trigrams of their normalised forms (counted with multiplicity). A copy with
 * different case, spacing or punctuation scores 1; changing one word of a
 * paragraph costs a few hundredths, rewriting it most of the score.
 */
export function textSimilarity(left: string, right: string): number {
  const a = normalizeText(left);
  const b = normalizeText(right);
  if (a === b) return 1;
  const leftGrams = trigramCounts(a);
  const rightGrams = trigramCounts(b);
  let shared = 0;
  let total = 0;
  for (const [gram, count] of leftGrams) {
    shared += Math.min(count, rightGrams.get(gram) ?? 0);
    total += count;
  }
  for (const count of rightGrams.values()) total += count;
  return total === 0 ? 0 : (2 * shared) / total;
}

function trigramCounts(text: string): Map<string, number> {
  // Padding gives short texts (and word edges) trigrams of their own.
  const padded = `  ${text} `;
  const counts = new Map<string, number>();
  for (let index = 0; index + 3 <= padded.length; index++) {
    const gram = padded.slice(index, index + 3);
    counts.set(gram, (counts.get(gram) ?? 0) + 1);
  }
  return counts;
}
