import { GgufError } from "./gguf-error.js";

/** The file does not start with the GGUF magic bytes. */
export class NotGgufError extends GgufError {
  override readonly name = "NotGgufError";
  constructor(path: string, detail: string) {
    super(path, `not a GGUF file (${detail}); pass a .gguf model file`);
  }
}
