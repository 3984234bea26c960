import { SelfplayError } from "../../core/errors/index.js";

/**
 * A PRM directory (`prm.onnx` + `prm.json`) cannot be used: a file is missing
 * or unreadable, the metadata does not validate, or the featuriser does not
 * match the one the PRM was trained with. `problem` says which and what to do.
 */
export class PrmModelError extends SelfplayError {
  override readonly name = "PrmModelError";
  constructor(
    /** The PRM directory or file at fault. */
    readonly path: string,
    readonly problem: string,
    options?: ErrorOptions,
  ) {
    super(`${path}: ${problem}`, options);
  }
}
