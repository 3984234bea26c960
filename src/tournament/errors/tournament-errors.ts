import { InvalidInputError } from "../../core/errors.js";

/** A constitution file is not valid YAML or not a valid kernel; the field names what to fix. */
export class KernelFileError extends InvalidInputError {
  override readonly name: string = "KernelFileError";
}

/** A transcript or agent submitted an action outside the closed vocabulary, or with malformed fields. */
export class UnknownActionError extends InvalidInputError {
  override readonly name: string = "UnknownActionError";
}

/** A transcript was recorded under one kernel version and replayed under another without saying so. */
export class KernelVersionMismatchError extends InvalidInputError {
  override readonly name: string = "KernelVersionMismatchError";
  constructor(field: string, recorded: string, given: string) {
    super(field, `kernel version ${recorded} (the transcript's); the kernel given is ${given} — pass the matching kernel, or replay across versions on purpose (--across-versions)`, given);
  }
}

/** An exploit record or transcript file is malformed: not JSON, not the schema, or its stored hash does not match. */
export class ExploitRecordError extends InvalidInputError {
  override readonly name: string = "ExploitRecordError";
}
