import { SelfplayError } from "./selfplay-error.js";

/** A verifier returned rewards that cannot be trained on (missing role, NaN, infinity). */
export class InvalidRewardError extends SelfplayError {
  override readonly name = "InvalidRewardError";
}
