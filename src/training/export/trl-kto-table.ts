import { InvalidInputError } from "../../core/errors/index.js";
import type { GenerateResult } from "../../core/schemas/generate-result.js";
import { outcomeLabel } from "../../frontier/labelling/outcome-label.js";
import type { ExportTable } from "./export-table.js";
import { BOOLEAN, MESSAGES } from "./parquet-column-type.js";
import { scoredSteps } from "./scored-steps.js";
import type { StepTableOptions } from "./step-table-options.js";

/**
 * TRL's conversational unpaired-preference dataset for `KTOTrainer`: one row
 * per scored Step, `label` true when its role's reward is above 0 (the
 * success rule of `outcomeLabel`: exact-match 1 is desirable, 0 or a −1
 * invalid reply undesirable).
 */
export function trlKtoTable(results: readonly GenerateResult[], options: StepTableOptions): ExportTable {
  const found = scoredSteps(results, options.role);
  if (found.steps.length === 0) {
    throw new InvalidInputError(`${options.source} (--format trl-kto)`, `a run with at least one scored Step with its role's reward${options.role === undefined ? "" : ` of role ${options.role}`}; it has none (${found.failedRollouts} failed rollout(s), ${found.unrewardedSteps} unrewarded Step(s))`);
  }
  return {
    columns: [
      { name: "prompt", type: MESSAGES },
      { name: "completion", type: MESSAGES },
      { name: "label", type: BOOLEAN },
    ],
    rows: found.steps.map(({ step, reward }) => ({ prompt: step.prompt, completion: step.completion, label: outcomeLabel(reward) === 1 })),
    skipped: { failedRollouts: found.failedRollouts, unrewardedSteps: found.unrewardedSteps, otherRoleSteps: found.otherRoleSteps },
  };
}
