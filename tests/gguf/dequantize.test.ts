import { describe, expect, it } from "vitest";
import { InvalidInputError } from "../../src/core/errors/index.js";
import { DEQUANTIZABLE_TYPES, dequantize } from "../../src/gguf/dequantize.js";

// Blocks are assembled byte by byte from the layouts in ggml-common.h, packed the
// way ggml-quants.c's quantize_row_*_ref packs them; expected values come from the
// formats' definitions (x = d·q, x = d·q + m, x = d·scale·q − dmin·min). Scales are
// powers of two and quants small integers, so every expected value is exact.

/** f16 bits of a few exact values. */
const HALF = { "0.125": 0x3000, "0.25": 0x3400, "0.5": 0x3800, "1": 0x3c00, "2": 0x4000, "-1": 0xbc00, "0.5-": 0xb800 } as const;

function half(bits: number): number[] {
  return [bits & 0xff, bits >> 8];
}

/** Deterministic quants in [0, range). */
function quants(count: number, range: number, salt: number): number[] {
  return Array.from({ length: count }, (_, index) => (index * 37 + salt * 11 + ((index * index) >> 3)) % range);
}

function decode(type: Parameters<typeof dequantize>[0], bytes: number[], count: number): number[] {
  return Array.from(dequantize(type, new Uint8Array(bytes), count));
}

describe("dequantize", () => {
  it("covers the types it claims", () => {
    expect([...DEQUANTIZABLE_TYPES].sort()).toEqual(
      ["bf16", "f16", "f32", "q2_K", "q3_K", "q4_0", "q4_1", "q4_K", "q5_0", "q5_1", "q5_K", "q6_K", "q8_0"].sort(),
    );
  });

  it("f32, f16 and bf16", () => {
    const f32 = new Uint8Array(new Float32Array([1.5, -0.1, 3e38]).buffer);
    expect(decode("f32", [...f32], 3)).toEqual([1.5, Math.fround(-0.1), Math.fround(3e38)]);
    // 0x0001 is the smallest subnormal, 0x7bff the largest finite, 0xfc00 −∞.
    expect(decode("f16", [...half(0x3c00), ...half(0xc100), ...half(0x0001), ...half(0x7bff), ...half(0xfc00)], 5)).toEqual([
      1, -2.5, 2 ** -24, 65504, -Infinity,
    ]);
    expect(decode("f16", half(0x7e00), 1)[0]).toBeNaN();
    // bf16 is the top half of a float32: 0x3f80 = 1, 0xc020 = −2.5, 0x4049 ≈ π.
    expect(decode("bf16", [0x80, 0x3f, 0x20, 0xc0, 0x49, 0x40], 3)).toEqual([1, -2.5, 3.140625]);
  });

  it("q4_0: x = (q − 8)·d, value j in the low nibble of byte j and value j + 16 in its high nibble", () => {
    const blocks = [
      { d: 0.5, bits: HALF["0.5"], q: quants(32, 16, 1) },
      { d: -1, bits: HALF["-1"], q: quants(32, 16, 2) },
    ];
    const bytes = blocks.flatMap(({ bits, q }) => [...half(bits), ...Array.from({ length: 16 }, (_, j) => (q[j] as number) | ((q[j + 16] as number) << 4))]);
    expect(bytes).toHaveLength(36);
    expect(decode("q4_0", bytes, 64)).toEqual(blocks.flatMap(({ d, q }) => q.map((value) => (value - 8) * d)));
  });

  it("q4_1: x = q·d + m", () => {
    const q = quants(32, 16, 3);
    const bytes = [...half(HALF["0.25"]), ...half(HALF["-1"]), ...Array.from({ length: 16 }, (_, j) => (q[j] as number) | ((q[j + 16] as number) << 4))];
    expect(bytes).toHaveLength(20);
    expect(decode("q4_1", bytes, 32)).toEqual(q.map((value) => value * 0.25 - 1));
  });

  /** qh bit j is the fifth bit of value j; qs packs the low nibbles like q4. */
  function fiveBitBlock(q: number[]): number[] {
    let high = 0;
    q.forEach((value, j) => (high |= ((value >> 4) & 1) << j));
    return [
      high & 0xff, (high >>> 8) & 0xff, (high >>> 16) & 0xff, (high >>> 24) & 0xff,
      ...Array.from({ length: 16 }, (_, j) => ((q[j] as number) & 15) | (((q[j + 16] as number) & 15) << 4)),
    ];
  }

  it("q5_0: x = (q − 16)·d with the fifth bits in a little-endian uint32", () => {
    const first = quants(32, 32, 4);
    const second = quants(32, 32, 5);
    const bytes = [...half(HALF["0.5"]), ...fiveBitBlock(first), ...half(HALF["2"]), ...fiveBitBlock(second)];
    expect(bytes).toHaveLength(44);
    expect(decode("q5_0", bytes, 64)).toEqual([...first.map((q) => (q - 16) * 0.5), ...second.map((q) => (q - 16) * 2)]);
  });

  it("q5_1: x = q·d + m", () => {
    const q = quants(32, 32, 6);
    const bytes = [...half(HALF["0.25"]), ...half(HALF["0.5"]), ...fiveBitBlock(q)];
    expect(bytes).toHaveLength(24);
    expect(decode("q5_1", bytes, 32)).toEqual(q.map((value) => value * 0.25 + 0.5));
  });

  it("q8_0: x = q·d with signed bytes", () => {
    const q = quants(32, 256, 7).map((value) => value - 128);
    const bytes = [...half(HALF["0.125"]), ...q.map((value) => value & 0xff)];
    expect(bytes).toHaveLength(34);
    expect(decode("q8_0", bytes, 32)).toEqual(q.map((value) => value * 0.125));
  });

  /** qs of q2_K and q3_K: four 2-bit values per byte, 32 bytes per 128 values. */
  function twoBitQuants(low: number[]): number[] {
    const packed: number[] = [];
    for (let start = 0; start < 256; start += 128) {
      for (let l = 0; l < 32; l++) {
        packed.push(
          (low[start + l] as number) | ((low[start + l + 32] as number) << 2) | ((low[start + l + 64] as number) << 4) | ((low[start + l + 96] as number) << 6),
        );
      }
    }
    return packed;
  }

  it("q2_K: sixteen sub-blocks of 16, x = d·scale·q − dmin·min", () => {
    const q = quants(256, 4, 8);
    const scales = quants(16, 16, 9);
    const minimums = quants(16, 16, 10);
    const bytes = [
      ...scales.map((scale, j) => scale | ((minimums[j] as number) << 4)),
      ...twoBitQuants(q),
      ...half(HALF["0.5"]),
      ...half(HALF["0.25"]),
    ];
    expect(bytes).toHaveLength(84);
    const expected = q.map((value, index) => 0.5 * (scales[index >> 4] as number) * value - 0.25 * (minimums[index >> 4] as number));
    expect(decode("q2_K", bytes, 256)).toEqual(expected);
  });

  it("q3_K: 3-bit quants (high bit in hmask) minus 4, 6-bit scales minus 32", () => {
    const q = quants(256, 8, 11);
    const scales = quants(16, 64, 12);
    const packedScales = new Array<number>(12).fill(0);
    scales.forEach((scale, j) => {
      if (j < 8) packedScales[j] = scale & 0xf;
      else packedScales[j - 8] = (packedScales[j - 8] as number) | ((scale & 0xf) << 4);
      packedScales[(j % 4) + 8] = (packedScales[(j % 4) + 8] as number) | ((scale >> 4) << (2 * Math.floor(j / 4)));
    });
    // Value j's high bit goes to hmask[j % 32], bit j / 32.
    const highMask = new Array<number>(32).fill(0);
    q.forEach((value, j) => {
      if (value > 3) highMask[j % 32] = (highMask[j % 32] as number) | (1 << Math.floor(j / 32));
    });
    const bytes = [...highMask, ...twoBitQuants(q.map((value) => value & 3)), ...packedScales, ...half(HALF["0.5"])];
    expect(bytes).toHaveLength(110);
    const expected = q.map((value, index) => 0.5 * ((scales[index >> 4] as number) - 32) * (value - 4));
    expect(decode("q3_K", bytes, 256)).toEqual(expected);
  });

  /** The 12 bytes holding eight 6-bit (scale, min) pairs of q4_K and q5_K. */
  function packScaleMinimumPairs(scales: number[], minimums: number[]): number[] {
    const packed = new Array<number>(12).fill(0);
    for (let j = 0; j < 8; j++) {
      const scale = scales[j] as number;
      const minimum = minimums[j] as number;
      if (j < 4) {
        packed[j] = scale;
        packed[j + 4] = minimum;
      } else {
        packed[j + 4] = (scale & 0xf) | ((minimum & 0xf) << 4);
        packed[j - 4] = (packed[j - 4] as number) | ((scale >> 4) << 6);
        packed[j] = (packed[j] as number) | ((minimum >> 4) << 6);
      }
    }
    return packed;
  }

  it("q4_K: eight sub-blocks of 32 with 6-bit scales and mins", () => {
    const q = quants(256, 16, 13);
    const scales = quants(8, 64, 14);
    const minimums = quants(8, 64, 15);
    const packedQuants: number[] = [];
    for (let start = 0; start < 256; start += 64) {
      for (let l = 0; l < 32; l++) packedQuants.push((q[start + l] as number) | ((q[start + l + 32] as number) << 4));
    }
    const bytes = [...half(HALF["0.25"]), ...half(HALF["0.125"]), ...packScaleMinimumPairs(scales, minimums), ...packedQuants];
    expect(bytes).toHaveLength(144);
    const expected = q.map((value, index) => 0.25 * (scales[index >> 5] as number) * value - 0.125 * (minimums[index >> 5] as number));
    expect(decode("q4_K", bytes, 256)).toEqual(expected);
  });

  it("q5_K: like q4_K with a fifth bit per value in qh", () => {
    const q = quants(256, 32, 16);
    const scales = quants(8, 64, 17);
    const minimums = quants(8, 64, 18);
    const highBits = new Array<number>(32).fill(0);
    const low: number[] = [];
    for (let pair = 0; pair < 4; pair++) {
      const start = pair * 64;
      for (let j = 0; j < 32; j++) {
        const first = q[start + j] as number;
        const second = q[start + j + 32] as number;
        if (first > 15) highBits[j] = (highBits[j] as number) | (1 << (2 * pair));
        if (second > 15) highBits[j] = (highBits[j] as number) | (2 << (2 * pair));
        low.push((first & 15) | ((second & 15) << 4));
      }
    }
    const bytes = [...half(HALF["0.5"]), ...half(HALF["1"]), ...packScaleMinimumPairs(scales, minimums), ...highBits, ...low];
    expect(bytes).toHaveLength(176);
    const expected = q.map((value, index) => 0.5 * (scales[index >> 5] as number) * value - (minimums[index >> 5] as number));
    expect(decode("q5_K", bytes, 256)).toEqual(expected);
  });

  it("q6_K: 6-bit quants minus 32, signed 8-bit scales per 16 values", () => {
    const q = quants(256, 64, 19);
    const scales = quants(16, 256, 20).map((value) => value - 128);
    const low = new Array<number>(128).fill(0);
    const high = new Array<number>(64).fill(0);
    for (let half128 = 0; half128 < 2; half128++) {
      const start = half128 * 128;
      for (let l = 0; l < 32; l++) {
        const [a, b, c, d] = [0, 32, 64, 96].map((offset) => q[start + l + offset] as number) as [number, number, number, number];
        low[half128 * 64 + l] = (a & 15) | ((c & 15) << 4);
        low[half128 * 64 + l + 32] = (b & 15) | ((d & 15) << 4);
        high[half128 * 32 + l] = (a >> 4) | ((b >> 4) << 2) | ((c >> 4) << 4) | ((d >> 4) << 6);
      }
    }
    const bytes = [...low, ...high, ...scales.map((value) => value & 0xff), ...half(HALF["0.5-"])];
    expect(bytes).toHaveLength(210);
    const expected = q.map((value, index) => -0.5 * (scales[index >> 4] as number) * (value - 32));
    expect(decode("q6_K", bytes, 256)).toEqual(expected);
  });

  it("refuses byte counts that do not match the element count, and unsupported types", () => {
    expect(() => dequantize("q8_0", new Uint8Array(33), 32)).toThrow(InvalidInputError);
    expect(() => dequantize("q8_0", new Uint8Array(34), 16)).toThrow(/block size 32/);
    expect(() => dequantize("iq2_xxs", new Uint8Array(66), 256)).toThrow(/one of f32/);
  });
});
