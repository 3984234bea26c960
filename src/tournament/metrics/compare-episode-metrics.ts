import type { EpisodeMetrics } from "./episode-metrics.js";

/** The scores compared, in order: the worst-off first, the aggregates only to break ties. */
export const METRIC_ORDER = ["worstOffHonestWelfare", "treasuryIntegrityPermille", "participationPermille", "legitimacyPermille"] as const satisfies readonly (keyof EpisodeMetrics)[];

/**
 * Worst-off-first lexicographic order, for `Array.prototype.sort`: negative
 * when `a` is the better episode. The worst-off honest citizen's welfare
 * decides; only on a tie does treasury integrity, then participation, then
 * legitimacy. So an episode where the median citizen prospers while one is
 * starved loses to one with less in aggregate and a protected floor.
 * Returns 0 only when all four are equal (a caller breaks that tie itself,
 * e.g. by episode index, to keep a ranking deterministic).
 */
export function compareEpisodeMetrics(a: EpisodeMetrics, b: EpisodeMetrics): number {
  for (const key of METRIC_ORDER) {
    if (a[key] !== b[key]) return b[key] - a[key];
  }
  return 0;
}
