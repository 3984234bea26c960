/** Padded tokens a separate forward pass costs beyond its rows (the per-op overhead of a pass), in token equivalents. */
export const BUCKET_OVERHEAD_TOKENS = 256;

/**
 * Splits sequences of input lengths `lengths` into at most `maxBuckets`
 * groups of similar length, minimising padded tokens (rows × longest row,
 * summed over groups) plus `overheadTokens` per group. A minibatch that mixes
 * short solver answers with long proposer prompts pads every row to the
 * longest; one pass per length group spends the time on real tokens. Exact:
 * dynamic programming over the lengths sorted. Returns indices into
 * `lengths`, each group in increasing index order, groups shortest first.
 */
export function planLengthBuckets(lengths: readonly number[], maxBuckets = 3, overheadTokens = BUCKET_OVERHEAD_TOKENS): number[][] {
  const order = lengths.map((_, index) => index).sort((a, b) => (lengths[a] as number) - (lengths[b] as number) || a - b);
  const count = order.length;
  if (count === 0) return [];
  const sorted = order.map((index) => lengths[index] as number);
  // cost[k][j]: best cost of the first j sorted sequences in k groups; a group (i, j] costs (j − i) · sorted[j − 1] + overhead.
  const cost = Array.from({ length: maxBuckets + 1 }, () => new Array<number>(count + 1).fill(Number.POSITIVE_INFINITY));
  const cut = Array.from({ length: maxBuckets + 1 }, () => new Array<number>(count + 1).fill(0));
  (cost[0] as number[])[0] = 0;
  for (let groups = 1; groups <= maxBuckets; groups++) {
    for (let end = 1; end <= count; end++) {
      for (let start = groups - 1; start < end; start++) {
        const candidate = (cost[groups - 1] as number[])[start] as number + (end - start) * (sorted[end - 1] as number) + overheadTokens;
        if (candidate < ((cost[groups] as number[])[end] as number)) {
          (cost[groups] as number[])[end] = candidate;
          (cut[groups] as number[])[end] = start;
        }
      }
    }
  }
  let groups = 1;
  for (let candidate = 2; candidate <= maxBuckets; candidate++) {
    if (((cost[candidate] as number[])[count] as number) < ((cost[groups] as number[])[count] as number)) groups = candidate;
  }
  const buckets: number[][] = [];
  for (let end = count; groups > 0; groups--) {
    const start = (cut[groups] as number[])[end] as number;
    buckets.unshift(order.slice(start, end).sort((a, b) => a - b));
    end = start;
  }
  return buckets;
}
