import { z } from "zod";

// The one place the project says what a LoRA adapts and how big it is by default: both trainers' options
// (`TrainerLoraOptionsSchema`, `createTrainableAdapter`), the random adapter maker and the CLI's help read these.
// It sits in inference/model-files, below training and the CLI, so that every one of them can import it.

/**
 * The kinds of matrix an adapter can target: every block's attention and feed-forward projections (the name
 * between `blk.N.` and `.weight`), and the untied output projection (`output`) — the matrices llama.cpp
 * multiplies through `build_lora_mm` (`adaptableWeights`) but the token embedding.
 */
export const LoraTargetSchema = z.enum(["attn_q", "attn_k", "attn_v", "attn_output", "ffn_gate", "ffn_up", "ffn_down", "output"]);
export type LoraTarget = z.infer<typeof LoraTargetSchema>;

/**
 * Every attention and feed-forward projection of a block. Adapting all the block's linear layers, not only the
 * attention's, is what QLoRA (Dettmers et al., 2023) found it takes to match full fine-tuning; `output` is left
 * out because a model with a tied output projection (SmolLM2, the project's own presets) has no `output.weight`.
 */
export const DEFAULT_LORA_TARGETS = ["attn_q", "attn_k", "attn_v", "attn_output", "ffn_gate", "ffn_up", "ffn_down"] as const satisfies readonly LoraTarget[];

/**
 * Inner width r of every pair. 16 by measurement on SmolLM2-135M-Instruct's word problems (benchmarks/RESULTS.md,
 * "LoRA rank on SmolLM2"): four GRPO steps at alpha = 2r gained +19.8 points held-out at rank 16 and +18.2 at 32
 * (three seeds each on one machine; +14.7 to +26.7 against +4.7 to +25.0), at the same update time a step, so the
 * smaller adapter: half the bytes written and synced each step.
 */
export const DEFAULT_LORA_RANK = 16;

/** LoRA alpha: the update is scaled by alpha / rank, so twice the rank starts every adapter at a scale of 2. */
export const DEFAULT_LORA_ALPHA = 2 * DEFAULT_LORA_RANK;
