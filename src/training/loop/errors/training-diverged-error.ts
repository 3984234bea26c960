import { SelfplayError } from "../../../core/errors/index.js";

/**
 * `maxNonFiniteUpdates` updates in a row had a non-finite loss or gradient in
 * every minibatch: each was skipped (no weight changed), and the run stops
 * rather than spin on a policy that can no longer learn. Exit 1: the job
 * failed, the input was fine.
 */
export class TrainingDivergedError extends SelfplayError {
  override readonly name = "TrainingDivergedError";
  constructor(
    readonly step: number,
    readonly updates: number,
  ) {
    super(
      `step ${step}: ${updates} updates in a row had a non-finite loss or gradient in every minibatch and changed nothing, so the run stops; ` +
        "the weights were already lost before the first of them (its checkpoints since hold the same ones): start again with a lower learning rate (trainer.optimizer.learningRate) or maxGradientNorm",
    );
  }
}
