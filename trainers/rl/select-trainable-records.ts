import type { TrainingRecord } from "../../src/core/schemas/training-record.js";

export interface SelectedRecords {
  records: TrainingRecord[];
  /** Records left out, by reason; logged with every step. */
  skipped: { constrained: number; greedy: number; empty: number };
}

/**
 * The records a policy-gradient update can use. Left out: constrained Steps
 * (their logprobs are under a grammar mask the trainer does not apply),
 * greedy ones (temperature 0 has no distribution to take a ratio against) and
 * those without completion tokens.
 */
export function selectTrainableRecords(records: readonly TrainingRecord[]): SelectedRecords {
  const selected: TrainingRecord[] = [];
  const skipped = { constrained: 0, greedy: 0, empty: 0 };
  for (const record of records) {
    if (record.completionTokenIds.length === 0) skipped.empty++;
    else if (record.constrained) skipped.constrained++;
    else if (record.sampler.temperature === 0) skipped.greedy++;
    else selected.push(record);
  }
  return { records: selected, skipped };
}
