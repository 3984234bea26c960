/**
 * The GGUF layout of a LoRA adapter, as llama.cpp's `llama_adapter_lora_init`
 * reads it. For each adapted base matrix W (row-major `[out, in]`, GGUF dims
 * `[in, out]`) the file holds `<W's name>.lora_a`, row-major `[rank, in]` (dims
 * `[in, rank]`), and `<W's name>.lora_b`, row-major `[out, rank]` (dims
 * `[rank, out]`). llama.cpp adds `scale · (alpha / rank) · B · (A · x)` to
 * `W · x`, rank being lora_b's `dims[0]`.
 */
export const LORA_ADAPTER_KEYS = {
  /** String; must be "adapter". */
  generalType: "general.type",
  /** String; must equal the base model's architecture. */
  architecture: "general.architecture",
  /** String; must be "lora". */
  adapterType: "adapter.type",
  /** float32 (llama.cpp asserts the type); without it llama.cpp drops the alpha / rank factor. */
  alpha: "adapter.lora.alpha",
  /** Activated-LoRA invocation tokens: the adapter then applies only after them. */
  invocationTokens: "adapter.alora.invocation_tokens",
  name: "general.name",
} as const;

export const LORA_A_SUFFIX = ".lora_a";
export const LORA_B_SUFFIX = ".lora_b";
