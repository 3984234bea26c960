import type { JsonObject } from "../../core/json.js";
import type { EpisodeRequest } from "../../core/schemas/episode-request.js";
import type { GenerateResult } from "../../core/schemas/generate-result.js";

/** One step's requests and, for a clustered environment, how their clusters were chosen. */
export interface StepRequestChoice {
  requests: EpisodeRequest[];
  /** Clustered prompts by the rule that chose them: `uniform`, `prm-weighted`, or `fallback:<kind>`. */
  reasons: Record<string, number>;
  /** Clustered prompts per cluster (empty for an environment without clusters). */
  targets: Record<string, number>;
  /** The logged message of the step's first decision of each rule, in `reasons`' order. */
  messages: string[];
}

/**
 * Chooses a step's requests from the environment's plan, and learns from
 * the step's results: uniform draws from the arena (no state beyond the
 * arena's), or the PRM-weighted frontier over the environment's clusters.
 */
export interface StepRequests {
  readonly mode: "uniform" | "prm";
  choose(): Promise<StepRequestChoice>;
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
