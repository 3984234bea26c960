import { describe, expect, it } from "vitest";
import { bfloat16BitsToNumber, float16BitsToNumber, numberToFloat16Bits } from "../../src/gguf/float16.js";

describe("float16", () => {
  it("decodes normal, subnormal and special half-precision bits", () => {
    expect(float16BitsToNumber(0x3c00)).toBe(1);
    expect(float16BitsToNumber(0xc000)).toBe(-2);
    expect(float16BitsToNumber(0x7bff)).toBe(65504);
    expect(float16BitsToNumber(0x0400)).toBe(2 ** -14);
    expect(float16BitsToNumber(0x03ff)).toBe(1023 * 2 ** -24);
    expect(float16BitsToNumber(0x8000)).toBe(-0);
    expect(float16BitsToNumber(0x7c00)).toBe(Infinity);
    expect(float16BitsToNumber(0x7c01)).toBeNaN();
  });

  it("encodes every finite half exactly (round trip over all 63488 finite patterns)", () => {
    const mismatches: number[] = [];
    for (let bits = 0; bits < 0x10000; bits++) {
      if ((bits & 0x7c00) === 0x7c00) continue;
      if (numberToFloat16Bits(float16BitsToNumber(bits)) !== bits) mismatches.push(bits);
    }
    // One assertion for all patterns: 63488 expect() calls would take seconds.
    expect(mismatches).toEqual([]);
  });

  it("rounds to nearest, ties to even, and overflows to infinity", () => {
    expect(numberToFloat16Bits(1 + 2 ** -11)).toBe(0x3c00); // tie → even mantissa 0
    expect(numberToFloat16Bits(1 + 3 * 2 ** -11)).toBe(0x3c02); // tie → even mantissa 2
    expect(numberToFloat16Bits(1 + 2 ** -11 + 2 ** -20)).toBe(0x3c01); // above the tie
    expect(numberToFloat16Bits(2 ** -25)).toBe(0x0000); // half the smallest subnormal: tie → 0
    expect(numberToFloat16Bits(1.5 * 2 ** -25)).toBe(0x0001);
    expect(numberToFloat16Bits(65520)).toBe(0x7c00); // rounds past the largest finite half
    expect(numberToFloat16Bits(-1e6)).toBe(0xfc00);
    expect(numberToFloat16Bits(NaN) & 0x7e00).toBe(0x7e00);
  });

  it("decodes bfloat16 as the top half of a float32", () => {
    expect(bfloat16BitsToNumber(0x3f80)).toBe(1);
    expect(bfloat16BitsToNumber(0xbfc0)).toBe(-1.5);
    expect(bfloat16BitsToNumber(0x7f80)).toBe(Infinity);
  });
});
