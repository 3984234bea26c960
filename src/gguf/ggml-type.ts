/** How a ggml element type packs values: `blockSize` values take `blockBytes` bytes. */
export interface GgmlTypeLayout {
  /** The id GGUF stores for the type (ggml's `enum ggml_type`). */
  readonly id: number;
  /** Values per block; a row's length must be a multiple of it. */
  readonly blockSize: number;
  /** Bytes per block. */
  readonly blockBytes: number;
}

/**
 * Every ggml element type GGUF files use, by the name `ggml_type_name` prints.
 * Layouts follow ggml-common.h; ids 4, 5, 31–33 and 36–38 were retired by ggml.
 */
export const GGML_TYPES = {
  f32: { id: 0, blockSize: 1, blockBytes: 4 },
  f16: { id: 1, blockSize: 1, blockBytes: 2 },
  q4_0: { id: 2, blockSize: 32, blockBytes: 18 },
  q4_1: { id: 3, blockSize: 32, blockBytes: 20 },
  q5_0: { id: 6, blockSize: 32, blockBytes: 22 },
  q5_1: { id: 7, blockSize: 32, blockBytes: 24 },
  q8_0: { id: 8, blockSize: 32, blockBytes: 34 },
  q8_1: { id: 9, blockSize: 32, blockBytes: 36 },
  q2_K: { id: 10, blockSize: 256, blockBytes: 84 },
  q3_K: { id: 11, blockSize: 256, blockBytes: 110 },
  q4_K: { id: 12, blockSize: 256, blockBytes: 144 },
  q5_K: { id: 13, blockSize: 256, blockBytes: 176 },
  q6_K: { id: 14, blockSize: 256, blockBytes: 210 },
  q8_K: { id: 15, blockSize: 256, blockBytes: 292 },
  iq2_xxs: { id: 16, blockSize: 256, blockBytes: 66 },
  iq2_xs: { id: 17, blockSize: 256, blockBytes: 74 },
  iq3_xxs: { id: 18, blockSize: 256, blockBytes: 98 },
  iq1_s: { id: 19, blockSize: 256, blockBytes: 50 },
  iq4_nl: { id: 20, blockSize: 32, blockBytes: 18 },
  iq3_s: { id: 21, blockSize: 256, blockBytes: 110 },
  iq2_s: { id: 22, blockSize: 256, blockBytes: 82 },
  iq4_xs: { id: 23, blockSize: 256, blockBytes: 136 },
  i8: { id: 24, blockSize: 1, blockBytes: 1 },
  i16: { id: 25, blockSize: 1, blockBytes: 2 },
  i32: { id: 26, blockSize: 1, blockBytes: 4 },
  i64: { id: 27, blockSize: 1, blockBytes: 8 },
  f64: { id: 28, blockSize: 1, blockBytes: 8 },
  iq1_m: { id: 29, blockSize: 256, blockBytes: 56 },
  bf16: { id: 30, blockSize: 1, blockBytes: 2 },
  tq1_0: { id: 34, blockSize: 256, blockBytes: 54 },
  tq2_0: { id: 35, blockSize: 256, blockBytes: 66 },
  mxfp4: { id: 39, blockSize: 32, blockBytes: 17 },
  nvfp4: { id: 40, blockSize: 64, blockBytes: 36 },
  q1_0: { id: 41, blockSize: 128, blockBytes: 18 },
} as const satisfies Record<string, GgmlTypeLayout>;

export type GgmlTypeName = keyof typeof GGML_TYPES;

const NAMES_BY_ID = new Map<number, GgmlTypeName>(
  (Object.keys(GGML_TYPES) as GgmlTypeName[]).map((name) => [GGML_TYPES[name].id, name]),
);

/** The type stored as `id`, or undefined for an id this table does not know. */
export function ggmlTypeNameOf(id: number): GgmlTypeName | undefined {
  return NAMES_BY_ID.get(id);
}

/** Bytes that `elementCount` values of `type` take; `elementCount` must be a multiple of the block size. */
export function ggmlByteLength(type: GgmlTypeName, elementCount: number): number {
  const layout = GGML_TYPES[type];
  return (elementCount / layout.blockSize) * layout.blockBytes;
}
