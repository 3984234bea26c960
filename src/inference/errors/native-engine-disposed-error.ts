import { NativeEngineError } from "./native-engine-error.js";

/** A native model or engine was used after dispose(), or was disposed while a call was running. */
export class NativeEngineDisposedError extends NativeEngineError {
  override readonly name = "NativeEngineDisposedError";
}
