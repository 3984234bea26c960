import type { GgmlTypeName } from "./ggml-type.js";

/** Where one tensor lives in a GGUF file and how it is stored. */
export interface GgufTensorInfo {
  readonly name: string;
  readonly type: GgmlTypeName;
  /**
   * Dimensions innermost first, exactly as GGUF stores them: a row-major
   * `[rows, columns]` matrix has dims `[columns, rows]`. Use
   * `rowMajorShapeFromDims` for the row-major order.
   */
  readonly dims: readonly number[];
  /** Product of `dims`. */
  readonly elementCount: number;
  /** Absolute byte offset of the tensor's data in the file. */
  readonly fileOffset: number;
  readonly byteLength: number;
}
