import { SelfplayError } from "../../core/errors/index.js";

/** The native decoder failed: llama.cpp refused a model, adapter or context, or a decode step failed. */
export class NativeEngineError extends SelfplayError {
  override readonly name: string = "NativeEngineError";
}
