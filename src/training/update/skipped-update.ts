import type { TrainingRecord } from "../../core/schemas/training-record.js";
import type { SelectedRecords } from "./select-trainable-records.js";
import type { UpdateMetrics } from "./update-metrics.js";
import { zeroAdvantageGroupShare } from "./zero-advantage-share.js";

/**
 * The metrics of an update that had no trainable record (all constrained,
 * greedy, empty or zero-advantage, or no records at all): nothing scored, no
 * optimizer step, the records left out counted by reason.
 */
export function skippedUpdate(batch: readonly TrainingRecord[], selected: SelectedRecords, started: number): UpdateMetrics {
  return {
    trainedReward: 0,
    klToReference: 0,
    entropy: null,
    clipFraction: 0,
    gradientNorm: 0,
    responseLength: 0,
    zeroAdvantageGroupShare: zeroAdvantageGroupShare(batch),
    mismatchKl: 0,
    importanceWeight: 1,
    trainedRecords: 0,
    trainedTokens: 0,
    skippedRecords: selected.skipped,
    valueLoss: null,
    skippedUpdate: true,
    optimizerSteps: 0,
    skippedOptimizerSteps: 0,
    elapsedMs: performance.now() - started,
  };
}
