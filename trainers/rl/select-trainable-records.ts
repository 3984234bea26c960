import type { TrainingRecord } from "../../src/core/schemas/training-record.js";

export interface SelectedRecords {
  records: TrainingRecord[];
  /** Records left out, by reason; logged with every step. */
  skipped: { constrained: number; greedy: number; empty: number; zeroAdvantage: number };
}

export interface SelectTrainableRecordsOptions {
  /**
   * Also leave out records whose advantage is exactly 0 (a group whose
   * members all scored alike), as DAPO's dynamic sampling does. Only valid
   * when such a record adds nothing to the loss: no KL or entropy term and no
   * critic (whose GAE advantages ignore the records' own).
   */
  dropZeroAdvantage?: boolean;
}

/**
 * The records a policy-gradient update can use. Left out: constrained Steps
 * (their logprobs are under a grammar mask the trainer does not apply),
 * greedy ones (temperature 0 has no distribution to take a ratio against) and
 * those without completion tokens; with `dropZeroAdvantage`, those with a zero advantage.
 */
export function selectTrainableRecords(records: readonly TrainingRecord[], options: SelectTrainableRecordsOptions = {}): SelectedRecords {
  const selected: TrainingRecord[] = [];
  const skipped = { constrained: 0, greedy: 0, empty: 0, zeroAdvantage: 0 };
  for (const record of records) {
    if (record.completionTokenIds.length === 0) skipped.empty++;
    else if (record.constrained) skipped.constrained++;
    else if (record.sampler.temperature === 0) skipped.greedy++;
    else if (options.dropZeroAdvantage === true && record.advantage === 0) skipped.zeroAdvantage++;
    else selected.push(record);
  }
  return { records: selected, skipped };
}
