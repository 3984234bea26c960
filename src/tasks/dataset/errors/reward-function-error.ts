import { SelfplayError } from "../../../core/errors/index.js";

/**
 * A dataset environment's reward function threw, or returned something other
 * than a finite number or null. Its rollout fails with this error (never a
 * silent 0), and the step's summary counts it under the function's name.
 */
export class RewardFunctionError extends SelfplayError {
  override readonly name = "RewardFunctionError";
  constructor(
    /** The reward function's name (`name`, or the function's own `fn.name`). */
    readonly rewardName: string,
    readonly problem: string,
  ) {
    super(`reward function "${rewardName}" ${problem}`);
  }
}

/** The reward function a RewardFunctionError's message names, or undefined for another message. */
export function rewardNameOfError(message: string): string | undefined {
  return /^reward function "(.*?)" /.exec(message)?.[1];
}
