import { z } from "zod";

/** One line of `llama-batched-bench --output-format jsonl` (the fields this benchmark reads). */
const BatchedBenchLineSchema = z.object({
  pp: z.number().int().min(0),
  tg: z.number().int().min(0),
  pl: z.number().int().positive(),
  n_threads: z.number().int().positive(),
  flash_attn: z.number().int(),
  t_pp: z.number().min(0),
  t_tg: z.number().min(0),
  speed_tg: z.number().min(0),
});

/** One measured configuration: `sequences` prompts of `promptTokens`, then `generatedTokens` decode steps over all of them. */
export interface BatchedBenchRow {
  promptTokens: number;
  generatedTokens: number;
  sequences: number;
  threads: number;
  /** llama.cpp's `llama_flash_attn_type`: -1 auto, 0 off, 1 on. */
  flashAttention: number;
  promptSeconds: number;
  generationSeconds: number;
  /** Generated tokens over the generation phase alone (the tool's S_TG). */
  generationTokensPerSecond: number;
  /** Generated tokens over the prompt pass and the generation together: what an end-to-end rollout figure compares with. */
  tokensPerSecond: number;
}

/**
 * Reads the JSON lines llama-batched-bench prints, one per configuration;
 * every other line (the log, llama_perf's summary) is skipped.
 */
export function parseBatchedBenchOutput(output: string): BatchedBenchRow[] {
  return output
    .split("\n")
    .filter((line) => line.trimStart().startsWith("{"))
    .map((line) => {
      const parsed = BatchedBenchLineSchema.parse(JSON.parse(line));
      return {
        promptTokens: parsed.pp,
        generatedTokens: parsed.tg,
        sequences: parsed.pl,
        threads: parsed.n_threads,
        flashAttention: parsed.flash_attn,
        promptSeconds: parsed.t_pp,
        generationSeconds: parsed.t_tg,
        generationTokensPerSecond: parsed.speed_tg,
        tokensPerSecond: (parsed.pl * parsed.tg) / (parsed.t_pp + parsed.t_tg),
      };
    });
}
