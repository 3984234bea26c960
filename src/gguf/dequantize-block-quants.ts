import { float16BitsToNumber } from "./float16.js";

// The 32-value block formats, ported from ggml-quants.c `dequantize_row_*`.
// Each function fills `output` from `bytes` (whole blocks, little-endian).
// In q4/q5 blocks, byte j holds value j in its low nibble and value j + 16 in its high one.

/** block_q4_0: f16 d, 16 bytes of nibbles; x = (q − 8)·d. */
export function dequantizeQ4_0(bytes: Uint8Array, output: Float32Array): void {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (let block = 0; block * 32 < output.length; block++) {
    const base = block * 18;
    const scale = float16BitsToNumber(view.getUint16(base, true));
    const out = block * 32;
    for (let j = 0; j < 16; j++) {
      const byte = bytes[base + 2 + j] as number;
      output[out + j] = ((byte & 0x0f) - 8) * scale;
      output[out + j + 16] = ((byte >> 4) - 8) * scale;
    }
  }
}

/** block_q4_1: f16 d, f16 m, 16 bytes of nibbles; x = q·d + m. */
export function dequantizeQ4_1(bytes: Uint8Array, output: Float32Array): void {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (let block = 0; block * 32 < output.length; block++) {
    const base = block * 20;
    const scale = float16BitsToNumber(view.getUint16(base, true));
    const minimum = float16BitsToNumber(view.getUint16(base + 2, true));
    const out = block * 32;
    for (let j = 0; j < 16; j++) {
      const byte = bytes[base + 4 + j] as number;
      output[out + j] = (byte & 0x0f) * scale + minimum;
      output[out + j + 16] = (byte >> 4) * scale + minimum;
    }
  }
}

/** block_q5_0: f16 d, u32 of fifth bits (bit j for value j), 16 bytes of nibbles; x = (q − 16)·d. */
export function dequantizeQ5_0(bytes: Uint8Array, output: Float32Array): void {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (let block = 0; block * 32 < output.length; block++) {
    const base = block * 22;
    const scale = float16BitsToNumber(view.getUint16(base, true));
    const highBits = view.getUint32(base + 2, true);
    const out = block * 32;
    for (let j = 0; j < 16; j++) {
      const byte = bytes[base + 6 + j] as number;
      const high0 = ((highBits >>> j) << 4) & 0x10;
      const high1 = (highBits >>> (j + 12)) & 0x10;
      output[out + j] = (((byte & 0x0f) | high0) - 16) * scale;
      output[out + j + 16] = (((byte >> 4) | high1) - 16) * scale;
    }
  }
}

/** block_q5_1: f16 d, f16 m, u32 of fifth bits, 16 bytes of nibbles; x = q·d + m. */
export function dequantizeQ5_1(bytes: Uint8Array, output: Float32Array): void {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (let block = 0; block * 32 < output.length; block++) {
    const base = block * 24;
    const scale = float16BitsToNumber(view.getUint16(base, true));
    const minimum = float16BitsToNumber(view.getUint16(base + 2, true));
    const highBits = view.getUint32(base + 4, true);
    const out = block * 32;
    for (let j = 0; j < 16; j++) {
      const byte = bytes[base + 8 + j] as number;
      const high0 = ((highBits >>> j) << 4) & 0x10;
      const high1 = (highBits >>> (j + 12)) & 0x10;
      output[out + j] = ((byte & 0x0f) | high0) * scale + minimum;
      output[out + j + 16] = ((byte >> 4) | high1) * scale + minimum;
    }
  }
}

/** block_q8_0: f16 d, 32 signed bytes; x = q·d. */
export function dequantizeQ8_0(bytes: Uint8Array, output: Float32Array): void {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (let block = 0; block * 32 < output.length; block++) {
    const base = block * 34;
    const scale = float16BitsToNumber(view.getUint16(base, true));
    const out = block * 32;
    for (let j = 0; j < 32; j++) output[out + j] = view.getInt8(base + 2 + j) * scale;
  }
}
