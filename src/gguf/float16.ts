// Scratch views to reinterpret float32 bits; Node 20 has no Math.f16round or DataView.getFloat16.
const float32Scratch = new Float32Array(1);
const uint32Scratch = new Uint32Array(float32Scratch.buffer);

/** Value of IEEE 754 half-precision bits (`ggml_half`). */
export function float16BitsToNumber(bits: number): number {
  const sign = bits & 0x8000 ? -1 : 1;
  const exponent = (bits >> 10) & 0x1f;
  const mantissa = bits & 0x3ff;
  if (exponent === 0) return sign * mantissa * 2 ** -24;
  if (exponent === 0x1f) return mantissa === 0 ? sign * Infinity : NaN;
  return sign * (1 + mantissa / 1024) * 2 ** (exponent - 15);
}

/** Half-precision bits of `value`, rounded to nearest, ties to even (as ggml's GGML_FP32_TO_FP16). */
export function numberToFloat16Bits(value: number): number {
  float32Scratch[0] = value;
  const bits = uint32Scratch[0] as number;
  const sign = (bits >>> 16) & 0x8000;
  const exponent = (bits >>> 23) & 0xff;
  let mantissa = bits & 0x7fffff;
  if (exponent === 0xff) return sign | 0x7c00 | (mantissa === 0 ? 0 : 0x200);
  const halfExponent = exponent - 127 + 15;
  if (halfExponent >= 0x1f) return sign | 0x7c00;
  if (halfExponent <= 0) {
    // Subnormal half: value in units of 2^-24, from the 24-bit significand.
    if (halfExponent < -10) return sign;
    mantissa |= 0x800000;
    const shift = 14 - halfExponent;
    return sign | roundShift(mantissa, shift);
  }
  // A carry out of the mantissa correctly bumps the exponent (up to infinity).
  return sign | ((halfExponent << 10) + roundShift(mantissa, 13));
}

function roundShift(value: number, shift: number): number {
  const kept = value >>> shift;
  const remainder = value & ((1 << shift) - 1);
  const halfway = 1 << (shift - 1);
  return remainder > halfway || (remainder === halfway && (kept & 1) === 1) ? kept + 1 : kept;
}

/** Value of bfloat16 bits: the top half of a float32. */
export function bfloat16BitsToNumber(bits: number): number {
  uint32Scratch[0] = (bits & 0xffff) << 16;
  return float32Scratch[0] as number;
}
