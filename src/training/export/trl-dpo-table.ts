import { InvalidInputError } from "../../core/errors/index.js";
import type { GenerateResult } from "../../core/schemas/generate-result.js";
import type { ExportTable } from "./export-table.js";
import { MESSAGES } from "./parquet-column-type.js";
import { scoredSteps, type ScoredStep } from "./scored-steps.js";
import type { StepTableOptions } from "./step-table-options.js";

/**
 * TRL's conversational preference dataset for `DPOTrainer`, from group
 * rankings: the scored Steps of one group (rollouts sharing a `groupId`) by
 * one role with the same prompt form a ranking by that role's reward; its
 * best Step is `chosen` and its worst `rejected` (the first in file order
 * where several tie for best or worst). A ranking of one Step, or whose best
 * and worst rewards tie, gives no pair. One pair per ranking, in the order
 * the rankings first appear.
 */
export function trlDpoTable(results: readonly GenerateResult[], options: StepTableOptions): ExportTable {
  const found = scoredSteps(results, options.role);
  const rankings = new Map<string, ScoredStep[]>();
  for (const scored of found.steps) {
    const key = JSON.stringify([scored.rollout.groupId, scored.step.roleId, scored.step.prompt]);
    const ranking = rankings.get(key);
    if (ranking) ranking.push(scored);
    else rankings.set(key, [scored]);
  }
  const rows: { prompt: unknown; chosen: unknown; rejected: unknown }[] = [];
  let singleSteps = 0;
  let tiedRankings = 0;
  for (const ranking of rankings.values()) {
    if (ranking.length < 2) {
      singleSteps++;
      continue;
    }
    // reduce keeps the earlier Step on a tie: strict comparisons.
    const best = ranking.reduce((kept, scored) => (scored.reward > kept.reward ? scored : kept));
    const worst = ranking.reduce((kept, scored) => (scored.reward < kept.reward ? scored : kept));
    if (best.reward === worst.reward) {
      tiedRankings++;
      continue;
    }
    rows.push({ prompt: best.step.prompt, chosen: best.step.completion, rejected: worst.step.completion });
  }
  if (rows.length === 0) {
    throw new InvalidInputError(
      `${options.source} (--format trl-dpo)`,
      `a run with groups of two or more rollouts whose Steps share a prompt and differ in reward${options.role === undefined ? "" : ` (role ${options.role})`} — a plan with groupSize ≥ 2, or sub-episode groups; it has ${rankings.size} ranking(s): ${singleSteps} of a single Step, ${tiedRankings} tied`,
    );
  }
  return {
    columns: [
      { name: "prompt", type: MESSAGES },
      { name: "chosen", type: MESSAGES },
      { name: "rejected", type: MESSAGES },
    ],
    rows,
    skipped: { failedRollouts: found.failedRollouts, unrewardedSteps: found.unrewardedSteps, otherRoleSteps: found.otherRoleSteps, singleStepRankings: singleSteps, tiedRankings },
  };
}
