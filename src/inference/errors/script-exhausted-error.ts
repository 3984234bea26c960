import { SelfplayError } from "../../core/errors/index.js";

/** A ScriptedInferenceClient was asked for a conversation its script does not cover. */
export class ScriptExhaustedError extends SelfplayError {
  override readonly name = "ScriptExhaustedError";
}
