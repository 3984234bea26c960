import { GgufError } from "./gguf-error.js";

/** The file is GGUF but holds a value no valid GGUF holds (bad type id, misaligned offset, duplicate key...). */
export class CorruptGgufError extends GgufError {
  override readonly name = "CorruptGgufError";
}
