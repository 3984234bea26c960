import { SelfplayError } from "./selfplay-error.js";

/** A schema-bound call produced no output that validated within its attempt budget. */
export class StructuredOutputError extends SelfplayError {
  override readonly name = "StructuredOutputError";
  constructor(readonly attempts: number, readonly lastOutput: string, reason: string) {
    super(
      `no output validated against the schema in ${attempts} attempt(s): ${reason}; last output: ${JSON.stringify(lastOutput.slice(0, 200))}. ` +
        "Raise maxAttempts or maxTokens, or simplify the schema",
    );
  }
}
