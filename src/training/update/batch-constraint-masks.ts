import { NativeAddonUnavailableError } from "../../inference/errors/index.js";
import type { TrainingRecord } from "../../core/schemas/training-record.js";
import type { ConstraintMasks } from "../../inference/grammar/constraint-masks.js";
import { NativeConstraintMasks } from "../../inference/native/native-constraint-masks.js";
import { replayConstraintMasks } from "./replay-constraint-masks.js";

/**
 * A trainer's source of constrained records' masks: llama.cpp's grammar
 * sampler over the trainer's base, opened at the first batch that has a
 * constrained record. Without the native addon those records stay left out
 * (counted as skippedRecords.constrained), said once on stderr.
 */
export class BatchConstraintMasks {
  private replayer: Promise<NativeConstraintMasks | undefined> | undefined;

  constructor(private readonly modelPath: string) {}

  /** The masks of `records`' constrained records; undefined when the batch has none or they cannot be rebuilt here. */
  async of(records: readonly TrainingRecord[]): Promise<Map<TrainingRecord, ConstraintMasks> | undefined> {
    if (!records.some((record) => record.constrained && record.constraint !== undefined)) return undefined;
    this.replayer ??= NativeConstraintMasks.create(this.modelPath).catch((error: unknown) => {
      if (!(error instanceof NativeAddonUnavailableError)) throw error;
      console.warn(`selfplay: constrained Steps are left out of training (counted as skippedRecords.constrained): ${error.reason}`);
      return undefined;
    });
    const replayer = await this.replayer;
    return replayer === undefined ? undefined : replayConstraintMasks(records, replayer);
  }

  async dispose(): Promise<void> {
    await (await this.replayer)?.dispose();
  }
}
