import { InvalidInputError } from "../core/errors/index.js";
import { numberToFloat16Bits } from "./float16.js";

/** Element types the writer can encode from float32 values. */
export const GGUF_WRITABLE_TYPES = ["f32", "f16", "q8_0", "q4_0"] as const;
export type GgufWritableType = (typeof GGUF_WRITABLE_TYPES)[number];

/**
 * Encodes float32 values as `type`, in row order. q8_0 follows ggml's
 * `quantize_row_q8_0_ref`: per 32 values, d = max|x| / 127 (stored as f16) and
 * q = round(x / d), so each value is off by at most d / 2 (plus d's f16 rounding).
 * q4_0 follows `quantize_row_q4_0_ref`: per 32 values, d = (the value of largest
 * magnitude) / −8 and q = min(15, trunc(x / d + 8.5)), two per byte (value j low,
 * value j + 16 high).
 */
export function encodeTensorData(type: GgufWritableType, values: Float32Array): Uint8Array {
  switch (type) {
    case "f32": {
      const bytes = new Uint8Array(values.length * 4);
      const view = new DataView(bytes.buffer);
      for (let index = 0; index < values.length; index++) view.setFloat32(index * 4, values[index] as number, true);
      return bytes;
    }
    case "f16": {
      const bytes = new Uint8Array(values.length * 2);
      const view = new DataView(bytes.buffer);
      for (let index = 0; index < values.length; index++) view.setUint16(index * 2, numberToFloat16Bits(values[index] as number), true);
      return bytes;
    }
    case "q8_0":
      return quantizeQ8_0(values);
    case "q4_0":
      return quantizeQ4_0(values);
    default:
      throw new InvalidInputError("type", `one of ${GGUF_WRITABLE_TYPES.join(", ")}`, type satisfies never);
  }
}

function quantizeQ8_0(values: Float32Array): Uint8Array {
  if (values.length % 32 !== 0) throw new InvalidInputError("values.length", "a multiple of 32 for q8_0", values.length);
  const bytes = new Uint8Array((values.length / 32) * 34);
  const view = new DataView(bytes.buffer);
  for (let block = 0; block * 32 < values.length; block++) {
    let maximum = 0;
    for (let j = 0; j < 32; j++) maximum = Math.max(maximum, Math.abs(values[block * 32 + j] as number));
    // float32 arithmetic, as the C reference does it.
    const scale = Math.fround(maximum / 127);
    const inverse = scale === 0 ? 0 : Math.fround(1 / scale);
    view.setUint16(block * 34, numberToFloat16Bits(scale), true);
    for (let j = 0; j < 32; j++) {
      const scaled = Math.fround((values[block * 32 + j] as number) * inverse);
      // C's roundf rounds halves away from zero; Math.round would round -2.5 to -2.
      view.setInt8(block * 34 + 2 + j, Math.sign(scaled) * Math.round(Math.abs(scaled)));
    }
  }
  return bytes;
}

function quantizeQ4_0(values: Float32Array): Uint8Array {
  if (values.length % 32 !== 0) throw new InvalidInputError("values.length", "a multiple of 32 for q4_0", values.length);
  const bytes = new Uint8Array((values.length / 32) * 18);
  const view = new DataView(bytes.buffer);
  for (let block = 0; block * 32 < values.length; block++) {
    let magnitude = 0;
    let extreme = 0;
    for (let j = 0; j < 32; j++) {
      const value = values[block * 32 + j] as number;
      if (Math.abs(value) > magnitude) {
        magnitude = Math.abs(value);
        extreme = value;
      }
    }
    // float32 arithmetic, as the C reference does it.
    const scale = Math.fround(extreme / -8);
    const inverse = scale === 0 ? 0 : Math.fround(1 / scale);
    view.setUint16(block * 18, numberToFloat16Bits(scale), true);
    // (int8_t)(x + 8.5f) truncates toward zero; x + 8.5 ≥ 0.5 here, so it is a floor.
    const nibble = (value: number) => Math.min(15, Math.trunc(Math.fround(Math.fround(value * inverse) + 8.5)));
    for (let j = 0; j < 16; j++) {
      bytes[block * 18 + 2 + j] = nibble(values[block * 32 + j] as number) | (nibble(values[block * 32 + 16 + j] as number) << 4);
    }
  }
  return bytes;
}
