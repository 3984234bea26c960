import { SelfplayError } from "./selfplay-error.js";

/** A configuration value, CLI flag or schema-validated input is not allowed. */
export class InvalidInputError extends SelfplayError {
  override readonly name: string = "InvalidInputError";
  constructor(
    /** Dotted path of the offending field, e.g. `count` or `sampler.temperature`. */
    readonly field: string,
    /** What is allowed instead. */
    readonly allowed: string,
    readonly received?: unknown,
  ) {
    super(
      `${field}: ${received === undefined ? "" : `got ${JSON.stringify(received)}; `}expected ${allowed}`,
    );
  }
}
