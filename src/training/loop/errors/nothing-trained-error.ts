import { SelfplayError } from "../../../core/errors/index.js";

/**
 * Every step of a run was left without a trainable record (each logged
 * `skippedUpdate`), so the final model holds the base model's weights. Raised
 * after the run's files are written: nothing is lost, but the run did not do
 * its job. Exit 1.
 */
export class NothingTrainedError extends SelfplayError {
  override readonly name = "NothingTrainedError";
  constructor(
    readonly steps: number,
    readonly finalModel: string,
  ) {
    super(
      `no step of the run trained anything: all ${steps} steps had no trainable record (update skipped), so ${finalModel} holds the base model's weights. ` +
        "See each step's skippedRecords and failures in metrics.jsonl: failed rollouts are never trained on, and records with a zero advantage are left out unless the loss has an entropy bonus (trainer.loss.entropyCoefficient)",
    );
  }
}
