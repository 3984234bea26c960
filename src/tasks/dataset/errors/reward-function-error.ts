import type { JsonObject } from "../../../core/json.js";
import { SelfplayError } from "../../../core/errors/index.js";

/**
 * A dataset environment's reward function threw, or returned something other
 * than a finite number or null. Its rollout fails with this error (never a
 * silent 0), and the step's summary counts it under the function's name
 * (`details.rewardFunction` in the rollout's error record).
 */
export class RewardFunctionError extends SelfplayError {
  override readonly name = "RewardFunctionError";
  override readonly details: JsonObject;
  constructor(
    /** The reward function's name (`name`, or the function's own `fn.name`). */
    readonly rewardName: string,
    readonly problem: string,
  ) {
    super(`reward function "${rewardName}" ${problem}`);
    this.details = { rewardFunction: rewardName };
  }
}
