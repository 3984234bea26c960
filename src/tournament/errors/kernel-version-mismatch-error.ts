import { InvalidInputError } from "../../core/errors/index.js";

/** A transcript was recorded under one kernel version and replayed under another without saying so. */
export class KernelVersionMismatchError extends InvalidInputError {
  override readonly name: string = "KernelVersionMismatchError";
  constructor(field: string, recorded: string, given: string) {
    super(field, `kernel version ${recorded} (the transcript's); the kernel given is ${given} — pass the matching kernel, or replay across versions on purpose (--across-versions)`, given);
  }
}
