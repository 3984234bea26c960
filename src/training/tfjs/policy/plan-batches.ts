import type { ScoredSequence } from "./pack-sequences.js";

/**
 * Groups sequences into forward passes of at most `maxBatchTokens` padded
 * tokens (rows × longest row); a sequence longer than that gets a pass of its
 * own. Sequences are sorted longest first so rows of a pass are of similar
 * length and little is spent on padding. Returns indices into `sequences`.
 */
export function planBatches(sequences: readonly ScoredSequence[], maxBatchTokens: number): number[][] {
  const inputLength = (index: number): number => {
    const sequence = sequences[index] as ScoredSequence;
    return sequence.promptTokenIds.length + Math.max(sequence.completionTokenIds.length - 1, 0);
  };
  const order = sequences.map((_, index) => index).sort((a, b) => inputLength(b) - inputLength(a) || a - b);
  const batches: number[][] = [];
  let current: number[] = [];
  let longest = 0;
  for (const index of order) {
    // Longest first: the first row of a batch sets its length.
    if (current.length > 0 && (current.length + 1) * longest > maxBatchTokens) {
      batches.push(current);
      current = [];
    }
    if (current.length === 0) longest = inputLength(index);
    current.push(index);
  }
  if (current.length > 0) batches.push(current);
  return batches;
}
