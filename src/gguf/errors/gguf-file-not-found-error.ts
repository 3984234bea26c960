import { GgufError } from "./gguf-error.js";

/** The GGUF file does not exist (or cannot be opened). */
export class GgufFileNotFoundError extends GgufError {
  override readonly name = "GgufFileNotFoundError";
  constructor(path: string, options?: ErrorOptions) {
    super(path, "file not found; check the path", options);
  }
}
