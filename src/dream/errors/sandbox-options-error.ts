import { InvalidInputError } from "../../core/errors/index.js";

/** A sandbox option (a limit, the program, the work directory) is out of range or missing. */
export class SandboxOptionsError extends InvalidInputError {
  override readonly name = "SandboxOptionsError";
}
