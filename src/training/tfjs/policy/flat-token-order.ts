import type { ScoredSequence } from "./pack-sequences.js";

/**
 * Where each completion token of `sequences`, in input order, sits in the
 * concatenated outputs of per-bucket passes (bucket after bucket, each in
 * its own sequence order).
 */
export function flatTokenOrder(buckets: readonly number[][], sequences: readonly ScoredSequence[]): Int32Array {
  const starts = new Array<number>(sequences.length);
  let offset = 0;
  for (const bucket of buckets) {
    for (const index of bucket) {
      starts[index] = offset;
      offset += (sequences[index] as ScoredSequence).completionTokenIds.length;
    }
  }
  const order = new Int32Array(offset);
  let next = 0;
  sequences.forEach((sequence, index) => {
    for (let token = 0; token < sequence.completionTokenIds.length; token++) order[next++] = (starts[index] as number) + token;
  });
  return order;
}
