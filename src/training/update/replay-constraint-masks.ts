import type { GrammarConstraint } from "../../core/schemas/grammar-constraint.js";
import type { TrainingRecord } from "../../core/schemas/training-record.js";
import type { ConstraintMasks } from "../../inference/grammar/constraint-masks.js";

/** Rebuilds a constrained Step's masks; `NativeConstraintMasks` is the one over llama.cpp's grammar sampler. */
export interface ConstraintMaskReplayer {
  replay(constraint: GrammarConstraint, completionTokenIds: ArrayLike<number>): Promise<ConstraintMasks>;
}

/**
 * The masks of every constrained record a policy update could train: those
 * that carry their constraint, have tokens and were sampled (not greedy).
 * Records written before `TrainingRecord.constraint` existed get none and
 * stay left out. A record whose tokens its grammar rejects throws
 * GrammarRejectedTokenError (its data is wrong, not merely untrainable).
 */
export async function replayConstraintMasks(
  records: readonly TrainingRecord[],
  replayer: ConstraintMaskReplayer,
): Promise<Map<TrainingRecord, ConstraintMasks>> {
  const masks = new Map<TrainingRecord, ConstraintMasks>();
  for (const record of records) {
    const { constraint } = record;
    if (!record.constrained || constraint === undefined) continue;
    if (record.completionTokenIds.length === 0 || record.sampler.temperature === 0) continue;
    // One at a time: each replay is a worker-thread job, and a batch holds few constrained Steps.
    masks.set(record, await replayer.replay(constraint, record.completionTokenIds));
  }
  return masks;
}
