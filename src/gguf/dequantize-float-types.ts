import { bfloat16BitsToNumber, float16BitsToNumber } from "./float16.js";

// Each function fills `output` (one value per element) from little-endian `bytes`.

export function dequantizeF32(bytes: Uint8Array, output: Float32Array): void {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (let index = 0; index < output.length; index++) output[index] = view.getFloat32(index * 4, true);
}

export function dequantizeF16(bytes: Uint8Array, output: Float32Array): void {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (let index = 0; index < output.length; index++) output[index] = float16BitsToNumber(view.getUint16(index * 2, true));
}

export function dequantizeBf16(bytes: Uint8Array, output: Float32Array): void {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (let index = 0; index < output.length; index++) output[index] = bfloat16BitsToNumber(view.getUint16(index * 2, true));
}
