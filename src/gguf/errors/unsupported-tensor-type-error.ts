import { GgufError } from "./gguf-error.js";

/** A tensor's element type cannot be read (unknown to selfplay) or dequantised. */
export class UnsupportedTensorTypeError extends GgufError {
  override readonly name = "UnsupportedTensorTypeError";
  constructor(path: string, readonly tensorName: string, readonly tensorType: string, supported: readonly string[]) {
    super(
      path,
      `tensor "${tensorName}" has type ${tensorType}, which selfplay cannot read ` +
        `(supported: ${supported.join(", ")}); re-quantise the model to one of those types`,
    );
  }
}
