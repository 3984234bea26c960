import { SelfplayError } from "../../core/errors/index.js";

/**
 * This machine's saved RolloutPool default (`pool-default.json`, written by
 * `selfplay bench pool --save`) cannot be used: it is not JSON or does not
 * validate. `path` names the file.
 */
export class PoolDefaultError extends SelfplayError {
  override readonly name = "PoolDefaultError";
  constructor(
    readonly path: string,
    readonly problem: string,
  ) {
    super(`${path}: ${problem}; re-run \`selfplay bench pool --save\` to measure this machine again, or delete the file to run in-process`);
  }
}
