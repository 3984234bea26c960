import type { JsonObject } from "../../src/core/json.js";
import type { EpisodeRequest } from "../../src/core/schemas/episode-request.js";
import type { GenerateResult } from "../../src/core/schemas/generate-result.js";

/** The episode type of the proposals whose targets are chosen. */
export const PROPOSE_EPISODE_TYPE = "arithmetic-propose";

/** One step's proposer requests and how their target clusters were chosen. */
export interface TargetChoice {
  /** One request per proposal, its artifact the target cluster. */
  requests: EpisodeRequest[];
  /** Targets by the rule that chose them: `uniform`, `prm-weighted`, or `fallback:<kind>` (see FrontierFallback). */
  reasons: Record<string, number>;
  /** Targets per cluster. */
  targets: Record<string, number>;
  /** The logged message of the step's first decision of each rule, in `reasons`' order. */
  messages: string[];
}

/**
 * Chooses the clusters a step's proposals target, and learns from the
 * step's results. Uniform draws need no state beyond the arena's; the
 * frontier keeps its tracker, which a checkpoint must carry.
 */
export interface ProposalTargets {
  readonly mode: "uniform" | "prm";
  choose(count: number): Promise<TargetChoice>;
  /** Feeds a step's results back before the next choice. */
  observe(results: readonly GenerateResult[]): void;
  /** Its state for a checkpoint; null when it has none. */
  snapshot(): JsonObject | null;
  dispose(): Promise<void>;
}

/** Counts of `keys`, in order of first appearance. */
export function countKeys(keys: readonly string[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const key of keys) counts[key] = (counts[key] ?? 0) + 1;
  return counts;
}
