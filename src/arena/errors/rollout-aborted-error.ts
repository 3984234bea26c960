import { SelfplayError } from "../../core/errors/index.js";

/** A run was aborted through its AbortSignal. */
export class RolloutAbortedError extends SelfplayError {
  override readonly name = "RolloutAbortedError";
}
