/**
 * What LlamaInferenceClient's modes set in llama.cpp (native/model-object.cpp),
 * spelled out so llama-batched-bench and node-llama-cpp get the same: "exact"
 * is f32 keys and values without flash attention; "fast" keeps llama.cpp's
 * defaults, f16 keys and values and flash attention "auto" (on for the CPU).
 */
export const DECODE_SETTINGS = {
  exact: { flashAttention: "off", kvCacheType: "f32" },
  fast: { flashAttention: "auto", kvCacheType: "f16" },
} as const satisfies Record<string, { flashAttention: "off" | "auto"; kvCacheType: "f32" | "f16" }>;

export type DecodeMode = keyof typeof DECODE_SETTINGS;

/** The native loop's batch (native/model-object.cpp): the whole context up to 512 tokens, never fewer than the sequences. */
export function nativeBatchSize(sequences: number, contextPerSequence: number): number {
  return Math.max(Math.min(sequences * contextPerSequence, 512), sequences);
}
