import { SelfplayError } from "../../core/errors/index.js";

/**
 * A file could not be used as GGUF. `path` names the file; the subclass says
 * which problem it has. Catch this class to handle every GGUF problem at once.
 */
export class GgufError extends SelfplayError {
  override readonly name: string = "GgufError";
  constructor(
    readonly path: string,
    /** What is wrong with the file and what to do about it. */
    readonly problem: string,
    options?: ErrorOptions,
  ) {
    super(`${path}: ${problem}`, options);
  }
}
