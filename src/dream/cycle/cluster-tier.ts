import type { ClusterStats } from "../../frontier/tracker/cluster-history.js";
import type { ChallengeTier } from "../challenges/challenge-tier.js";

/** First-try wins (distinct challenges) a cluster needs to unlock each tier above basic. */
export const TIER_UNLOCK_WINS: Readonly<Record<Exclude<ChallengeTier, "basic">, number>> = { intermediate: 2, advanced: 4, expert: 6 };

/**
 * A cluster's difficulty tier from the FrontierTracker's mastery counters
 * (the tracker keeps wins, not tiers): each tier unlocks after a number of
 * distinct first-try wins, so re-rolls of one deterministic challenge never
 * climb the ladder.
 */
export function clusterTier(stats: Pick<ClusterStats, "firstAttemptWins">): ChallengeTier {
  const wins = stats.firstAttemptWins;
  if (wins >= TIER_UNLOCK_WINS.expert) return "expert";
  if (wins >= TIER_UNLOCK_WINS.advanced) return "advanced";
  if (wins >= TIER_UNLOCK_WINS.intermediate) return "intermediate";
  return "basic";
}
