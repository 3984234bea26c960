import { InvalidInputError } from "./invalid-input-error.js";

/**
 * A configuration or options object has a key its schema does not declare —
 * usually a misspelling, which would otherwise be dropped without a word.
 */
export class UnknownKeyError extends InvalidInputError {
  override readonly name: string = "UnknownKeyError";
  constructor(
    /** Where the key is, ending with the key itself, e.g. `my.json: trainer.optimizer.learningRat`. */
    field: string,
    /** What to do: `unknown key; did you mean "learningRate"?`. */
    hint: string,
  ) {
    super(field, hint);
    this.message = `${field}: ${hint}`;
  }
}
