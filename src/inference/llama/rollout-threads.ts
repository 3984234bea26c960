import { availableParallelism } from "node:os";
import type { ThreadChoice } from "../../core/thread-choice.js";

/**
 * Parameters from which the engine's decode takes every core by default, as the trainer's update does; a smaller
 * model decodes on one thread. On the 2-core development machine the project's presets (at most ~3.5M parameters)
 * decoded fastest on 1 thread — their per-token work is too small to pay for ggml's per-operation barriers (559
 * tokens/s vs ~100 at node-llama-cpp's default, medium) — while the 494M-parameter qwen2-0.5b preset (q8_0) decoded
 * 16 sequences × 64 tokens at 108 tokens/s on 1 thread and 167 on 2. SmolLM2-135M (Q4_1), measured only with the
 * machine shared (`benchmarks/decode-threads.ts`, 32 tokens, 3 rounds): at load average ~5 on its 2 cores, 16–25
 * tokens/s on 1 thread and 5 on 2 at 1 sequence, 32–48 and 7–13 at 16; at 12–14, 10–12 on 1 thread and under 2 on 2
 * (no 2-thread cell finished). The threshold sits between it and qwen2-0.5b, where every figure taken agrees; a quiet
 * machine's figures for SmolLM2 may move it down.
 */
export const MULTI_THREAD_DECODE_PARAMETERS = 250_000_000;

/**
 * CPU threads of a rollout engine's decode: `configured` (`threads`), else every core of this machine for a model
 * of at least MULTI_THREAD_DECODE_PARAMETERS parameters, else 1. Every core, as the trainer's update has them
 * (`updateThreads`): a step's phases run one after another, so the decode never runs beside the update.
 */
export function rolloutThreads(configured: number | undefined, parameters: number, cores: number = availableParallelism()): ThreadChoice {
  if (configured !== undefined) return { threads: configured, reason: "from threads" };
  const millions = `${Math.round(parameters / 1e6)}M parameters`;
  if (parameters >= MULTI_THREAD_DECODE_PARAMETERS) return { threads: cores, reason: `default: this machine's cores, for a model of ${millions}` };
  return { threads: 1, reason: `default: 1 for a model of ${millions}, under ${MULTI_THREAD_DECODE_PARAMETERS / 1e6}M` };
}
