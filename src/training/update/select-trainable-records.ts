import type { TrainingRecord } from "../../core/schemas/training-record.js";
import type { ConstraintMasks } from "../../inference/grammar/constraint-masks.js";
import { isTruncatedSampler } from "./is-truncated-sampler.js";

export interface SelectedRecords {
  records: TrainingRecord[];
  /** Records left out, by reason; logged with every step. */
  skipped: { constrained: number; truncated: number; greedy: number; empty: number; zeroAdvantage: number };
}

export interface SelectTrainableRecordsOptions {
  /**
   * Also leave out records whose advantage is exactly 0 (a group whose
   * members all scored alike), as DAPO's dynamic sampling does. Only valid
   * when such a record adds nothing to the loss: no KL or entropy term and no
   * critic (whose GAE advantages ignore the records' own).
   */
  dropZeroAdvantage?: boolean;
  /**
   * The rebuilt grammar masks of constrained records (`replayConstraintMasks`),
   * for a trainer that takes the masked log-softmax. A constrained record is
   * trained only when it has masks here; without this option none is.
   */
  constraintMasks?: ReadonlyMap<TrainingRecord, ConstraintMasks>;
  /**
   * The trainer scores Steps sampled with top-k, top-p or min-p under the
   * same truncation (`truncationSurvivors`); without this option they are
   * left out, never trained against the untruncated distribution.
   */
  reproducesTruncation?: boolean;
}

/**
 * The records a policy-gradient update can use. Left out: constrained Steps
 * without masks (their logprobs are under a grammar mask the trainer would
 * not apply), Steps sampled with top-k, top-p or min-p unless the trainer
 * reproduces the truncation, greedy ones (temperature 0 has
 * no distribution to take a ratio against) and those without completion
 * tokens; with `dropZeroAdvantage`, those with a zero advantage.
 */
export function selectTrainableRecords(records: readonly TrainingRecord[], options: SelectTrainableRecordsOptions = {}): SelectedRecords {
  const selected: TrainingRecord[] = [];
  const skipped = { constrained: 0, truncated: 0, greedy: 0, empty: 0, zeroAdvantage: 0 };
  for (const record of records) {
    if (record.completionTokenIds.length === 0) skipped.empty++;
    else if (record.sampler.temperature === 0) skipped.greedy++;
    else if (isTruncatedSampler(record.sampler) && options.reproducesTruncation !== true) skipped.truncated++;
    else if (record.constrained && options.constraintMasks?.has(record) !== true) skipped.constrained++;
    else if (options.dropZeroAdvantage === true && record.advantage === 0) skipped.zeroAdvantage++;
    else selected.push(record);
  }
  return { records: selected, skipped };
}
