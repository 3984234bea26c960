import type { TrainingRecord } from "../../core/schemas/training-record.js";
import { mismatchKl } from "../logprobs/mismatch-kl.js";
import { concatenateArrays } from "./concatenate-arrays.js";
import type { SelectedRecords } from "./select-trainable-records.js";
import type { UpdateMetrics } from "./update-metrics.js";
import { zeroAdvantageGroupShare } from "./zero-advantage-share.js";

/** What an update sums over its minibatches, the same for every backend. */
export interface UpdateTotals {
  clipFraction: number;
  gradientNorm: number;
  kl: number;
  entropy: number;
  importance: number;
  valueLoss: number;
  minibatches: number;
  steps: number;
  skippedSteps: number;
}

export function emptyUpdateTotals(): UpdateTotals {
  return { clipFraction: 0, gradientNorm: 0, kl: 0, entropy: 0, importance: 0, valueLoss: 0, minibatches: 0, steps: 0, skippedSteps: 0 };
}

export interface CompletedUpdate {
  /** Every record of the batch, trained or left out. */
  batch: readonly TrainingRecord[];
  trained: readonly TrainingRecord[];
  selected: SelectedRecords;
  /** The engine's logprobs of every trained token, in record order. */
  engineLogprobs: Float64Array;
  /** π_old of every trained record, before the update. */
  oldLogprobs: readonly Float64Array[];
  totals: UpdateTotals;
  /** Whether a critic trained (`ppo-critic`): only then is there a value loss. */
  critic: boolean;
  /** `performance.now()` when the update began. */
  started: number;
}

/** The metrics of an update that trained records: averages per minibatch, the gradient norm per optimizer step taken. */
export function completedUpdateMetrics(update: CompletedUpdate): UpdateMetrics {
  const { trained, totals } = update;
  const trainedTokens = update.engineLogprobs.length;
  const perMinibatch = (total: number) => total / Math.max(totals.minibatches, 1);
  return {
    trainedReward: trained.reduce((sum, record) => sum + record.reward, 0) / Math.max(trained.length, 1),
    klToReference: perMinibatch(totals.kl),
    entropy: perMinibatch(totals.entropy),
    clipFraction: perMinibatch(totals.clipFraction),
    gradientNorm: totals.gradientNorm / Math.max(totals.steps, 1),
    responseLength: trainedTokens / trained.length,
    zeroAdvantageGroupShare: zeroAdvantageGroupShare(update.batch),
    mismatchKl: mismatchKl(update.engineLogprobs, concatenateArrays(update.oldLogprobs)),
    importanceWeight: perMinibatch(totals.importance),
    trainedRecords: trained.length,
    trainedTokens,
    skippedRecords: update.selected.skipped,
    valueLoss: update.critic ? perMinibatch(totals.valueLoss) : null,
    skippedUpdate: false,
    optimizerSteps: totals.steps,
    skippedOptimizerSteps: totals.skippedSteps,
    elapsedMs: performance.now() - update.started,
  };
}
