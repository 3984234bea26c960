import { InvalidInputError } from "../../core/errors/index.js";

/** A transcript or agent submitted an action outside the closed vocabulary, or with malformed fields. */
export class UnknownActionError extends InvalidInputError {
  override readonly name: string = "UnknownActionError";
}
