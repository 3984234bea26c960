import { InvalidInputError } from "../../core/errors/index.js";

/** A constitution file is not valid YAML or not a valid kernel; the field names what to fix. */
export class KernelFileError extends InvalidInputError {
  override readonly name: string = "KernelFileError";
}
