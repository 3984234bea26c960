import { SelfplayError } from "../../core/errors/index.js";

/** A PrmScorer returned something other than one probability in [0, 1] per state. */
export class InvalidPrmScoreError extends SelfplayError {
  override readonly name = "InvalidPrmScoreError";
}
