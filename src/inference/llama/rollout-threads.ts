import { availableParallelism } from "node:os";
import type { ThreadChoice } from "../../core/thread-choice.js";

/**
 * Parameters from which the engine's decode takes every core by default, as the trainer's update does; a smaller
 * model decodes on one thread. Measured on the 2-core development machine with nothing else running
 * (`benchmarks/decode-threads.ts`, exact mode, 64 tokens, 3 rounds; tokens/s, 1 → 2 threads): SmolLM2-135M (Q4_1)
 * 43–49 → 65–72 at 1 sequence and 63–70 → 97–103 at 16; the 494M qwen2-0.5b preset (q8_0) 108 → 167 at 16. The
 * project's presets gain nothing at 1 sequence (medium 1,710–1,858 → 1,835–1,916; the arithmetic base 3,084–3,133
 * → 2,520–3,132) and 1.4–1.7× at 16, but stay on one thread: the suite runs two files at once on two cores, and a
 * 2-thread decode on a shared core collapses (SmolLM2 at load ~5: 5 tokens/s on 2 threads against 16–25 on 1;
 * ggml's per-operation barriers spin), which would cost the small models' tests far more than it gains.
 */
export const MULTI_THREAD_DECODE_PARAMETERS = 100_000_000;

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
