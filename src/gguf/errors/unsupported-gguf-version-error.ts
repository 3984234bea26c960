import { GgufError } from "./gguf-error.js";

/** The file is GGUF, but of a version this reader does not read (it reads 2 and 3). */
export class UnsupportedGgufVersionError extends GgufError {
  override readonly name = "UnsupportedGgufVersionError";
  constructor(path: string, readonly version: number) {
    super(
      path,
      `GGUF version ${version} is not supported (supported: 2, 3)` +
        (version > 0xffff ? "; the file may be big-endian, convert it to a little-endian GGUF" : "; convert the model with a current llama.cpp"),
    );
  }
}
