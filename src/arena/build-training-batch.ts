import type { GenerateResult } from "../core/schemas/generate-result.js";
import { grammarTextFor } from "../inference/grammar/grammar-text-for.js";
import type { TrainingBatch, TrainingRecord } from "../core/schemas/training-record.js";
import { creditKey, type CreditAssignment } from "./credit-assignment.js";
import type { EpisodeRegistry } from "./episode-registry.js";
import { walkResults } from "./walk-results.js";

/**
 * Flattens scored rollouts into TrainingRecords: one per Step of a trainable
 * role that received credit. Failed and dropped rollouts contribute nothing; Steps of
 * untrainable roles, of roles without credit (bound to a frozen policy) or
 * without tokens are counted as skipped.
 */
export function buildTrainingBatch(
  registry: EpisodeRegistry,
  results: readonly GenerateResult[],
  assignments: readonly CreditAssignment[],
  batchIndex: number,
  creditAssigner: string,
): TrainingBatch {
  const byKey = new Map(assignments.map((assignment) => [creditKey(assignment.rolloutId, assignment.roleId), assignment]));
  const records: TrainingRecord[] = [];
  let rollouts = 0;
  let failedRollouts = 0;
  let skippedSteps = 0;
  let completionTokens = 0;
  for (const result of walkResults(results)) {
    rollouts++;
    if (result.outcome.status !== "scored") {
      if (result.outcome.status === "failed") failedRollouts++;
      continue;
    }
    const { roles } = registry.get(result.rollout.episodeType).episode;
    result.rollout.steps.forEach((step, stepIndex) => {
      const assignment = byKey.get(creditKey(result.rollout.id, step.roleId));
      const trainable = roles.find((role) => role.id === step.roleId)?.trainable ?? false;
      if (!assignment || !trainable || step.completionTokenIds.length === 0) {
        skippedSteps++;
        return;
      }
      completionTokens += step.completionTokenIds.length;
      records.push({
        rolloutId: result.rollout.id,
        stepIndex,
        roleId: step.roleId,
        groupId: result.rollout.groupId,
        promptTokenIds: step.promptTokenIds,
        completionTokenIds: step.completionTokenIds,
        logprobs: step.completionLogprobs,
        reward: assignment.reward,
        advantage: assignment.advantage,
        sampler: step.sampler,
        constrained: step.constrained,
        // The grammar text the engine ran, so a trainer can replay the mask (a JSON schema compiles the same way here as there).
        ...(step.constraint !== null && {
          constraint: {
            gbnf: grammarTextFor(step.constraint),
            ...(step.constraint.logitBias !== undefined && { logitBias: step.constraint.logitBias }),
          },
        }),
        policyVersion: step.policyVersion,
      });
    });
  }
  return { batchIndex, records, creditAssigner, stats: { rollouts, failedRollouts, skippedSteps, completionTokens } };
}
