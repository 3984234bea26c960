import { SelfplayError } from "./selfplay-error.js";

/** A judge's output could not be parsed within its retry budget. */
export class JudgeOutputError extends SelfplayError {
  override readonly name = "JudgeOutputError";
  constructor(readonly attempts: number, readonly lastOutput: string, reason: string) {
    super(`judge output did not parse after ${attempts} attempt(s): ${reason}; last output: ${JSON.stringify(lastOutput.slice(0, 200))}`);
  }
}
