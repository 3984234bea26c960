import { InvalidInputError } from "../../core/errors/index.js";
import type { GenerateResult } from "../../core/schemas/generate-result.js";
import type { ExportContent } from "./export-content.js";


/**
 * selfplay's own trajectories: the result trees of rollouts.jsonl, one a
 * line, each as GenerateResultSchema parses it (fields in schema order, the
 * defaults of older lines filled in), so `selfplay prm label` and the
 * library read them back. A tree in which no rollout was scored (its episode
 * failed, and so did any sub-episode) is left out; a tree with some scored
 * rollout is kept whole, its failed ones marked by their `outcome`.
 */
export function trajectoryLines(results: readonly GenerateResult[], source: string): ExportContent {
  const kept = results.filter(hasScoredRollout);
  if (kept.length === 0) {
    throw new InvalidInputError(`${source} (--format trajectories)`, `a run with at least one scored rollout; its ${results.length} line(s) hold none`);
  }
  return { content: kept.map((result) => `${JSON.stringify(result)}\n`).join(""), rows: kept.length, skipped: { unscoredTrees: results.length - kept.length } };
}

function hasScoredRollout(result: GenerateResult): boolean {
  return result.outcome.status === "scored" || result.children.some(hasScoredRollout);
}
