import { float16BitsToNumber } from "./float16.js";

// The 256-value "k-quant" super-block formats, ported from ggml-quants.c
// `dequantize_row_q{2..6}_K`; struct layouts from ggml-common.h. Each function
// fills `output` from `bytes` (whole super-blocks, little-endian).

const SUPER_BLOCK = 256;

/** block_q2_K (84 bytes): scales[16] (low nibble scale, high nibble min), qs[64], f16 d, f16 dmin. */
export function dequantizeQ2_K(bytes: Uint8Array, output: Float32Array): void {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (let block = 0; block * SUPER_BLOCK < output.length; block++) {
    const base = block * 84;
    const scale = float16BitsToNumber(view.getUint16(base + 80, true));
    const minimumScale = float16BitsToNumber(view.getUint16(base + 82, true));
    let out = block * SUPER_BLOCK;
    let scaleIndex = 0;
    for (let quants = base + 16; quants < base + 80; quants += 32) {
      for (let shift = 0; shift < 8; shift += 2) {
        for (const half of [0, 16]) {
          const packed = bytes[base + scaleIndex++] as number;
          const subScale = scale * (packed & 0x0f);
          const subMinimum = minimumScale * (packed >> 4);
          for (let l = 0; l < 16; l++) output[out++] = subScale * (((bytes[quants + half + l] as number) >> shift) & 3) - subMinimum;
        }
      }
    }
  }
}

/** block_q3_K (110 bytes): hmask[32], qs[64], scales[12] (sixteen 6-bit scales), f16 d. */
export function dequantizeQ3_K(bytes: Uint8Array, output: Float32Array): void {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const scales = new Int8Array(16);
  for (let block = 0; block * SUPER_BLOCK < output.length; block++) {
    const base = block * 110;
    unpackQ3KScales(view, base + 96, scales);
    const scale = float16BitsToNumber(view.getUint16(base + 108, true));
    let out = block * SUPER_BLOCK;
    let scaleIndex = 0;
    let highMask = 1;
    for (let quants = base + 32; quants < base + 96; quants += 32) {
      for (let shift = 0; shift < 8; shift += 2) {
        for (const half of [0, 16]) {
          const subScale = scale * ((scales[scaleIndex++] as number) - 32);
          for (let l = 0; l < 16; l++) {
            const low = ((bytes[quants + half + l] as number) >> shift) & 3;
            const highSet = ((bytes[base + half + l] as number) & highMask) !== 0;
            output[out++] = subScale * (low - (highSet ? 0 : 4));
          }
        }
        highMask <<= 1;
      }
    }
  }
}

// ggml's kmask shuffle: bytes 0–7 hold the low 4 bits of the 16 scales (scale j in
// byte j % 8, high nibble for j ≥ 8); bytes 8–11 hold their top 2 bits.
function unpackQ3KScales(view: DataView, offset: number, scales: Int8Array): void {
  const lowMask = 0x0f0f0f0f;
  const highMask = 0x03030303;
  const word0 = view.getUint32(offset, true);
  const word1 = view.getUint32(offset + 4, true);
  const high = view.getUint32(offset + 8, true);
  const words = [
    (word0 & lowMask) | (((high >>> 0) & highMask) << 4),
    (word1 & lowMask) | (((high >>> 2) & highMask) << 4),
    ((word0 >>> 4) & lowMask) | (((high >>> 4) & highMask) << 4),
    ((word1 >>> 4) & lowMask) | (((high >>> 6) & highMask) << 4),
  ];
  for (let index = 0; index < 16; index++) {
    scales[index] = ((words[index >> 2] as number) >>> (8 * (index & 3))) & 0xff;
  }
}

/** ggml's get_scale_min_k4: the 6-bit scale and min of sub-block `j` from the 12 packed bytes at `offset`. */
function scaleAndMinimum(bytes: Uint8Array, offset: number, j: number): [number, number] {
  const at = (index: number): number => bytes[offset + index] as number;
  if (j < 4) return [at(j) & 63, at(j + 4) & 63];
  return [(at(j + 4) & 0x0f) | ((at(j - 4) >> 6) << 4), (at(j + 4) >> 4) | ((at(j) >> 6) << 4)];
}

/** block_q4_K (144 bytes): f16 d, f16 dmin, scales[12] (eight 6-bit scale/min pairs), qs[128]. */
export function dequantizeQ4_K(bytes: Uint8Array, output: Float32Array): void {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (let block = 0; block * SUPER_BLOCK < output.length; block++) {
    const base = block * 144;
    const scale = float16BitsToNumber(view.getUint16(base, true));
    const minimumScale = float16BitsToNumber(view.getUint16(base + 2, true));
    let out = block * SUPER_BLOCK;
    for (let pair = 0; pair < 4; pair++) {
      const quants = base + 16 + pair * 32;
      const [scale1, minimum1] = scaleAndMinimum(bytes, base + 4, 2 * pair);
      const [scale2, minimum2] = scaleAndMinimum(bytes, base + 4, 2 * pair + 1);
      for (let l = 0; l < 32; l++) output[out++] = scale * scale1 * ((bytes[quants + l] as number) & 0x0f) - minimumScale * minimum1;
      for (let l = 0; l < 32; l++) output[out++] = scale * scale2 * ((bytes[quants + l] as number) >> 4) - minimumScale * minimum2;
    }
  }
}

/** block_q5_K (176 bytes): f16 d, f16 dmin, scales[12], qh[32] (fifth bits), qs[128]. */
export function dequantizeQ5_K(bytes: Uint8Array, output: Float32Array): void {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (let block = 0; block * SUPER_BLOCK < output.length; block++) {
    const base = block * 176;
    const scale = float16BitsToNumber(view.getUint16(base, true));
    const minimumScale = float16BitsToNumber(view.getUint16(base + 2, true));
    const highBits = base + 16;
    let out = block * SUPER_BLOCK;
    for (let pair = 0; pair < 4; pair++) {
      const quants = base + 48 + pair * 32;
      const lowMask = 1 << (2 * pair);
      const highMask = 2 << (2 * pair);
      const [scale1, minimum1] = scaleAndMinimum(bytes, base + 4, 2 * pair);
      const [scale2, minimum2] = scaleAndMinimum(bytes, base + 4, 2 * pair + 1);
      for (let l = 0; l < 32; l++) {
        const fifth = (bytes[highBits + l] as number) & lowMask ? 16 : 0;
        output[out++] = scale * scale1 * (((bytes[quants + l] as number) & 0x0f) + fifth) - minimumScale * minimum1;
      }
      for (let l = 0; l < 32; l++) {
        const fifth = (bytes[highBits + l] as number) & highMask ? 16 : 0;
        output[out++] = scale * scale2 * (((bytes[quants + l] as number) >> 4) + fifth) - minimumScale * minimum2;
      }
    }
  }
}

/** block_q6_K (210 bytes): ql[128] (low 4 bits), qh[64] (high 2 bits), int8 scales[16], f16 d. */
export function dequantizeQ6_K(bytes: Uint8Array, output: Float32Array): void {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (let block = 0; block * SUPER_BLOCK < output.length; block++) {
    const base = block * 210;
    const scale = float16BitsToNumber(view.getUint16(base + 208, true));
    for (let half = 0; half < 2; half++) {
      const low = base + half * 64;
      const high = base + 128 + half * 32;
      const scales = base + 192 + half * 8;
      const out = block * SUPER_BLOCK + half * 128;
      for (let l = 0; l < 32; l++) {
        const group = l >> 4;
        const lowA = bytes[low + l] as number;
        const lowB = bytes[low + l + 32] as number;
        const highBits = bytes[high + l] as number;
        const q1 = ((lowA & 0x0f) | ((highBits & 3) << 4)) - 32;
        const q2 = ((lowB & 0x0f) | (((highBits >> 2) & 3) << 4)) - 32;
        const q3 = ((lowA >> 4) | (((highBits >> 4) & 3) << 4)) - 32;
        const q4 = ((lowB >> 4) | (((highBits >> 6) & 3) << 4)) - 32;
        output[out + l] = scale * view.getInt8(scales + group) * q1;
        output[out + l + 32] = scale * view.getInt8(scales + group + 2) * q2;
        output[out + l + 64] = scale * view.getInt8(scales + group + 4) * q3;
        output[out + l + 96] = scale * view.getInt8(scales + group + 6) * q4;
      }
    }
  }
}
