/** A labelled example as far as a per-cluster prior needs it. */
export interface ClusterLabel {
  cluster: string;
  label: number;
}

/**
 * The per-cluster prior's predictions: each evaluated example gets the mean
 * label of its cluster in `training` — the baseline a PRM must beat to know
 * more than "this kind of problem is usually solved". A cluster absent from
 * training gets the overall training mean (0.5 when training is empty).
 */
export function clusterPriorScores(training: readonly ClusterLabel[], evaluated: readonly { cluster: string }[]): number[] {
  const sums = new Map<string, { total: number; count: number }>();
  let overall = 0;
  for (const { cluster, label } of training) {
    const entry = sums.get(cluster) ?? { total: 0, count: 0 };
    entry.total += label;
    entry.count += 1;
    sums.set(cluster, entry);
    overall += label;
  }
  const fallback = training.length === 0 ? 0.5 : overall / training.length;
  return evaluated.map(({ cluster }) => {
    const entry = sums.get(cluster);
    return entry ? entry.total / entry.count : fallback;
  });
}
