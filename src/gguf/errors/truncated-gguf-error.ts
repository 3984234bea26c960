import { GgufError } from "./gguf-error.js";

/** The header or a tensor's data runs past the end of the file: an interrupted download or copy. */
export class TruncatedGgufError extends GgufError {
  override readonly name = "TruncatedGgufError";
  constructor(path: string, what: string, fileSize: number) {
    super(path, `${what} runs past the end of the file (${fileSize} bytes); the file is truncated, download or copy it again`);
  }
}
