import { SelfplayError } from "../../../core/errors/index.js";

/** A RolloutPool was given work after close(), or cannot start its workers. */
export class RolloutPoolError extends SelfplayError {
  override readonly name = "RolloutPoolError";
}
