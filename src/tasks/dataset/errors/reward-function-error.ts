import type { JsonObject } from "../../../core/json.js";
import { SelfplayError } from "../../../core/errors/index.js";

/**
 * A dataset environment's reward function threw, or returned something other
 * than a finite number or null. Its rollout fails with this error (never a
 * silent 0), and the step's summary counts it under the function's name
 * (`details.rewardFunction` in the rollout's error record). What the function
 * threw is the `cause`, its own class, message and stack intact: the CLI
 * prints it with its first frame in the user's file.
 */
export class RewardFunctionError extends SelfplayError {
  override readonly name = "RewardFunctionError";
  override readonly details: JsonObject;
  constructor(
    /** The reward function's name (`name`, or the function's own `fn.name`). */
    readonly rewardName: string,
    readonly problem: string,
    options?: ErrorOptions,
  ) {
    super(`reward function "${rewardName}" ${problem}`, options);
    this.details = { rewardFunction: rewardName };
  }
}
