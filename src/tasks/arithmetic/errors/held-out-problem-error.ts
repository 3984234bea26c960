import { SelfplayError } from "../../../core/errors/index.js";

/**
 * A proposer wrote a problem of a held-out split. The environment drops it:
 * the rollout fails at scoring with this error, so neither the problem nor
 * its solutions are trained on, and evaluation stays honest.
 */
export class HeldOutProblemError extends SelfplayError {
  override readonly name = "HeldOutProblemError";
  constructor(readonly problem: string) {
    super(`"${problem}" is a held-out problem; it is dropped from training`);
  }
}
