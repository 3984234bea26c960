import { InvalidInputError } from "../core/errors/index.js";
import { dequantizeBf16, dequantizeF16, dequantizeF32 } from "./dequantize-float-types.js";
import { dequantizeQ4_0, dequantizeQ4_1, dequantizeQ5_0, dequantizeQ5_1, dequantizeQ8_0 } from "./dequantize-block-quants.js";
import { dequantizeQ2_K, dequantizeQ3_K, dequantizeQ4_K, dequantizeQ5_K, dequantizeQ6_K } from "./dequantize-k-quants.js";
import { GGML_TYPES, ggmlByteLength, type GgmlTypeName } from "./ggml-type.js";

type Dequantizer = (bytes: Uint8Array, output: Float32Array) => void;

const DEQUANTIZERS: Partial<Record<GgmlTypeName, Dequantizer>> = {
  f32: dequantizeF32,
  f16: dequantizeF16,
  bf16: dequantizeBf16,
  q4_0: dequantizeQ4_0,
  q4_1: dequantizeQ4_1,
  q5_0: dequantizeQ5_0,
  q5_1: dequantizeQ5_1,
  q8_0: dequantizeQ8_0,
  q2_K: dequantizeQ2_K,
  q3_K: dequantizeQ3_K,
  q4_K: dequantizeQ4_K,
  q5_K: dequantizeQ5_K,
  q6_K: dequantizeQ6_K,
};

/** The element types `dequantize` turns into float32. */
export const DEQUANTIZABLE_TYPES = Object.keys(DEQUANTIZERS) as readonly GgmlTypeName[];

export function isDequantizable(type: GgmlTypeName): boolean {
  return DEQUANTIZERS[type] !== undefined;
}

/**
 * Decodes `elementCount` values of `type` from `bytes` into float32, exactly
 * as ggml's `dequantize_row_*` does (up to float rounding order).
 */
export function dequantize(type: GgmlTypeName, bytes: Uint8Array, elementCount: number): Float32Array {
  const dequantizer = DEQUANTIZERS[type];
  if (!dequantizer) throw new InvalidInputError("type", `one of ${DEQUANTIZABLE_TYPES.join(", ")}`, type);
  const { blockSize } = GGML_TYPES[type];
  if (!Number.isInteger(elementCount) || elementCount < 0 || elementCount % blockSize !== 0) {
    throw new InvalidInputError("elementCount", `a multiple of ${type}'s block size ${blockSize}`, elementCount);
  }
  const expectedBytes = ggmlByteLength(type, elementCount);
  if (bytes.byteLength !== expectedBytes) {
    throw new InvalidInputError("bytes.byteLength", `${expectedBytes} bytes for ${elementCount} ${type} values`, bytes.byteLength);
  }
  const output = new Float32Array(elementCount);
  dequantizer(bytes, output);
  return output;
}
