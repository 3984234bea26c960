import { InvalidInputError } from "../../core/errors/index.js";
import type { GenerateResult } from "../../core/schemas/generate-result.js";
import type { Messages } from "../../core/schemas/message.js";
import type { Rollout } from "../../core/schemas/rollout.js";
import type { ExportTable } from "./export-table.js";
import { DOUBLE, INT64, MESSAGES, STRING } from "./parquet-column-type.js";
import { scoredSteps, type ScoredStep } from "./scored-steps.js";
import type { StepTableOptions } from "./step-table-options.js";

/** The verl prompt a rollout gives, and the rollouts that played it. */
interface VerlPrompt {
  first: ScoredStep;
  prompt: Messages;
  groundTruth: string;
  rewards: number[];
}

/**
 * verl's RL dataset (its "Prepare Data for Post-Training" layout): one row
 * per distinct prompt the run played, with the ground truth its episode
 * recorded. A scored rollout gives its first Step (of `role`, when given):
 * `prompt` that Step's messages, `reward_model.ground_truth` the rollout's
 * `artifacts.expected` (what ExactMatchVerifier checks; arithmetic-solve,
 * solve and, scored by its built-in exactMatch, dataset record it — exact-match
 * is a dataset), `data_source` `selfplay/<episode type>`,
 * `ability` the episode type. Rollouts of one episode type, role, prompt and
 * ground truth are one row; `extra_info` says how many played it and their
 * mean reward. Rollouts without a string `artifacts.expected` are left out;
 * a run with none is refused.
 */
export function verlTable(results: readonly GenerateResult[], options: StepTableOptions): ExportTable {
  const found = scoredSteps(results, options.role);
  const prompts = new Map<string, VerlPrompt>();
  // By identity: a rollout's first Step (of the role) is the prompt its episode opened with.
  const seen = new Set<Rollout>();
  let withoutGroundTruth = 0;
  const typesWithout = new Set<string>();
  for (const scored of found.steps) {
    if (seen.has(scored.rollout)) continue;
    seen.add(scored.rollout);
    const expected = scored.rollout.artifacts["expected"];
    if (typeof expected !== "string") {
      withoutGroundTruth++;
      typesWithout.add(scored.rollout.episodeType);
      continue;
    }
    const key = JSON.stringify([scored.rollout.episodeType, scored.step.roleId, scored.step.prompt, expected]);
    const entry = prompts.get(key);
    if (entry) entry.rewards.push(scored.reward);
    else prompts.set(key, { first: scored, prompt: scored.step.prompt, groundTruth: expected, rewards: [scored.reward] });
  }
  if (prompts.size === 0) {
    throw new InvalidInputError(
      `${options.source} (--format verl)`,
      `scored rollouts whose episode records its ground truth as a string artifacts.expected (arithmetic-solve, solve and dataset with its built-in exactMatch do)${options.role === undefined ? "" : ` with Steps of role ${options.role}`}; its ${withoutGroundTruth} scored rollout(s)${typesWithout.size > 0 ? ` (${[...typesWithout].join(", ")})` : ""} have none`,
    );
  }
  const rows = [...prompts.values()].map(({ first, prompt, groundTruth, rewards }, index) => ({
    data_source: `selfplay/${first.rollout.episodeType}`,
    prompt,
    ability: first.rollout.episodeType,
    reward_model: { style: "rule", ground_truth: groundTruth },
    extra_info: {
      split: "train",
      index,
      role_id: first.step.roleId,
      rollout_id: first.rollout.id,
      group_id: first.rollout.groupId,
      rollouts: rewards.length,
      mean_reward: rewards.reduce((sum, reward) => sum + reward, 0) / rewards.length,
    },
  }));
  return {
    columns: [
      { name: "data_source", type: STRING },
      { name: "prompt", type: MESSAGES },
      { name: "ability", type: STRING },
      { name: "reward_model", type: { kind: "struct", fields: [{ name: "style", type: STRING }, { name: "ground_truth", type: STRING }] } },
      {
        name: "extra_info",
        type: {
          kind: "struct",
          fields: [
            { name: "split", type: STRING },
            { name: "index", type: INT64 },
            { name: "role_id", type: STRING },
            { name: "rollout_id", type: STRING },
            { name: "group_id", type: STRING },
            { name: "rollouts", type: INT64 },
            { name: "mean_reward", type: DOUBLE },
          ],
        },
      },
    ],
    rows,
    skipped: { failedRollouts: found.failedRollouts, unrewardedSteps: found.unrewardedSteps, otherRoleSteps: found.otherRoleSteps, rolloutsWithoutGroundTruth: withoutGroundTruth },
  };
}
