import { InvalidInputError } from "../../core/errors/index.js";
import type { GenerateResult } from "../../core/schemas/generate-result.js";
import { outcomeLabel } from "../../frontier/labelling/outcome-label.js";
import type { ExportTable } from "./export-table.js";
import { MESSAGES } from "./parquet-column-type.js";
import { scoredSteps } from "./scored-steps.js";
import type { StepTableOptions } from "./step-table-options.js";

/**
 * TRL's conversational prompt-completion dataset for `SFTTrainer`: one row
 * per successful Step (its role's reward > 0, the rule `outcomeLabel`
 * counts a success by), `prompt` the messages the role was given and
 * `completion` the messages it wrote. Rejection sampling: the run's
 * successes, duplicates kept, as the policy sampled them.
 */
export function trlSftTable(results: readonly GenerateResult[], options: StepTableOptions): ExportTable {
  const found = scoredSteps(results, options.role);
  const successes = found.steps.filter((scored) => outcomeLabel(scored.reward) === 1);
  if (successes.length === 0) {
    throw new InvalidInputError(
      `${options.source} (--format trl-sft)`,
      `a run with at least one scored Step whose role's reward is above 0 (a success to imitate)${options.role === undefined ? "" : ` of role ${options.role}`}; its ${found.steps.length} scored Step(s) have none`,
    );
  }
  return {
    columns: [
      { name: "prompt", type: MESSAGES },
      { name: "completion", type: MESSAGES },
    ],
    rows: successes.map(({ step }) => ({ prompt: step.prompt, completion: step.completion })),
    skipped: { failedRollouts: found.failedRollouts, unrewardedSteps: found.unrewardedSteps, otherRoleSteps: found.otherRoleSteps, unsuccessfulSteps: found.steps.length - successes.length },
  };
}
