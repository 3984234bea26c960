import { DroppedRolloutError } from "../../../environments/errors/index.js";

/**
 * A proposer wrote a problem of a held-out split. The environment drops it:
 * the rollout is `dropped` at scoring with this error as its reason, so
 * neither the problem nor its solutions are trained on, evaluation stays
 * honest, and the run counts it apart from failures (`rollouts.dropped`).
 */
export class HeldOutProblemError extends DroppedRolloutError {
  override readonly name = "HeldOutProblemError";
  constructor(readonly problem: string) {
    super(`"${problem}" is a held-out problem; it is dropped from training`);
  }
}
