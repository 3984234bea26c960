import { SelfplayError, type DropsRollout } from "../../core/errors/index.js";

/**
 * An environment drops a rollout by design (a proposer wrote a held-out
 * problem, …): thrown by the environment's own episode or verifier, it makes
 * the rollout `dropped` with this error as its reason — never trained on,
 * and never counted as a failure (`failures`, the step's `FAILED` line,
 * `maxFailedFraction`). Counted instead in the step's `rollouts.dropped` and
 * `drops` by name, so extend it with a name of your own. What a user's
 * function throws (a dataset's reward function) is wrapped in the error that
 * names it, so a drop is always the environment's decision, never a bug.
 */
export class DroppedRolloutError extends SelfplayError implements DropsRollout {
  override readonly name: string = "DroppedRolloutError";
  readonly dropsRollout = true;
}
