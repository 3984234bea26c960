import { describe, expect, it } from "vitest";
import { parseBatchedBenchOutput } from "../../../src/benchmarks/llama-cpp/parse-batched-bench-output.js";

/** `llama-batched-bench … -npp 32 -ntg 128 -npl 16,16 --output-format jsonl` (bundled release, medium random model, 1 thread), stdout and stderr. */
const OUTPUT = [
  '{"n_kv_max": 4096, "n_batch": 512, "n_ubatch": 512, "flash_attn": -1, "is_pp_shared": 0, "n_gpu_layers": 0, "n_threads": 1, "n_threads_batch": 1, "pp": 32, "tg": 128, "pl": 16, "n_kv": 2560, "t_pp": 0.212496, "speed_pp": 2409.457031, "t_tg": 0.774248, "speed_tg": 2645.147217, "t": 0.986744, "speed": 2594.391357}',
  '{"n_kv_max": 4096, "n_batch": 512, "n_ubatch": 512, "flash_attn": -1, "is_pp_shared": 0, "n_gpu_layers": 0, "n_threads": 1, "n_threads_batch": 1, "pp": 32, "tg": 128, "pl": 16, "n_kv": 2560, "t_pp": 0.115094, "speed_pp": 4448.537598, "t_tg": 1.026317, "speed_tg": 1995.484863, "t": 1.141411, "speed": 2242.838135}',
  "",
  "warning: no usable GPU found, --gpu-layers option will be ignored",
  "warning: one possible reason is that llama.cpp was compiled without GPU support",
].join("\n");

describe("parseBatchedBenchOutput", () => {
  it("reads one row per JSON line and skips the log", () => {
    const rows = parseBatchedBenchOutput(OUTPUT);
    expect(rows).toHaveLength(2);
    expect(rows[0]).toEqual({
      promptTokens: 32,
      generatedTokens: 128,
      sequences: 16,
      threads: 1,
      flashAttention: -1,
      promptSeconds: 0.212496,
      generationSeconds: 0.774248,
      generationTokensPerSecond: 2645.147217,
      tokensPerSecond: (16 * 128) / (0.212496 + 0.774248),
    });
  });

  it("counts generated tokens over the prompt pass and the generation: what an end-to-end rollout figure compares with", () => {
    const [, second] = parseBatchedBenchOutput(OUTPUT);
    expect(second?.tokensPerSecond).toBeCloseTo(2048 / 1.141411, 6);
    expect(second?.generationTokensPerSecond).toBeGreaterThan(second?.tokensPerSecond ?? Infinity);
  });

  it("finds no row in output without a result line (the markdown table, or lines its log thread lost)", () => {
    expect(parseBatchedBenchOutput("warning: no usable GPU found\n|    PP |     TG |    B |")).toEqual([]);
    expect(parseBatchedBenchOutput("")).toEqual([]);
  });
});
