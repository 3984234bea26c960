import type { JsonObject } from "../../core/json.js";
import type { EpisodeRequest } from "../../core/schemas/episode-request.js";
import type { GenerateResult } from "../../core/schemas/generate-result.js";

/** One step's requests and, for a clustered environment, how their clusters were chosen. */
export interface StepRequestChoice {
  requests: EpisodeRequest[];
  /** Clustered prompts by the rule that chose them: `uniform`, `prm-weighted`, `fallback:<kind>`, `learnable-weighted`, `uniform-floor`. */
  reasons: Record<string, number>;
  /** Clustered prompts per cluster (empty for an environment without clusters). */
  targets: Record<string, number>;
  /** The logged message of the step's first decision of each rule, in `reasons`' order. */
  messages: string[];
  /** With adaptive group sizing: the mean attempts per prompt of each cluster drawn (absent otherwise). */
  groupSizes?: Record<string, number>;
}

/**
 * Chooses a step's requests from the environment's plan, and learns from
 * the step's results: uniform draws from the arena (no state beyond the
 * arena's), the PRM-weighted frontier over the environment's clusters, or
 * the learnable frontier (clusters weighted by their recent pass rates).
 */
export interface StepRequests {
  readonly mode: "uniform" | "prm" | "learnable";
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

/** A step's choice summarised from its clustered prompts' decisions: counts by rule and by cluster, each rule's first message. */
export function summariseDecisions(decisions: readonly { cluster: string; rule: string; message: string }[]): Omit<StepRequestChoice, "requests"> {
  const rules = decisions.map((decision) => decision.rule);
  const reasons = countKeys(rules);
  return {
    reasons,
    targets: countKeys(decisions.map((decision) => decision.cluster)),
    messages: Object.keys(reasons).map((rule) => (decisions[rules.indexOf(rule)] as { message: string }).message),
  };
}
