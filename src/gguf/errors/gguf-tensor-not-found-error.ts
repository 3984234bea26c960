import { GgufError } from "./gguf-error.js";

/** A tensor was asked for by a name the GGUF file does not contain. */
export class GgufTensorNotFoundError extends GgufError {
  override readonly name = "GgufTensorNotFoundError";
  constructor(path: string, readonly tensorName: string) {
    super(path, `no tensor named "${tensorName}"; list the file's tensors with inspectGguf()`);
  }
}
