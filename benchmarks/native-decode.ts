// Native decode: completion tokens per second of LlamaInferenceClient through
// selfplay's native loop and through node-llama-cpp's own path, on a
// project-made model, at 1, 4 and 16 sequences, in exact and fast modes.
// Each figure is end to end (tokenise, prompt, decode, sample, detokenise):
// 2 × sequences requests of `maxTokens` tokens at temperature 1, the best of
// `rounds` rounds after a warm-up (the best, because other work on the machine only slows a round down).
// Tokens per CPU-second (this process's user + system time) are given too: on a
// shared machine they compare the two paths' cost where wall-clock figures cannot.
//
//   npm run build && node dist/benchmarks/native-decode.js [--quick] [--threads N]   (prints JSON)
import { mkdtemp, rm } from "node:fs/promises";
import { availableParallelism, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import type { GenerationRequest } from "../src/core/inference-client.js";
import { DEFAULT_SAMPLER } from "../src/core/schemas/sampler-settings.js";
import type { Decoder } from "../src/inference/llama/choose-decoder.js";
import { LlamaInferenceClient } from "../src/inference/llama/llama-inference-client.js";
import { createRandomModel } from "../src/inference/model-files/create-random-model.js";
import type { ModelPresetName } from "../src/inference/model-files/model-presets.js";

export interface NativeDecodeOptions {
  preset: ModelPresetName;
  sequenceCounts: readonly number[];
  modes: ReadonlyArray<"exact" | "fast">;
  threads: number;
  maxTokens: number;
  rounds: number;
}

export interface DecodeThroughput {
  /** Completion tokens per wall-clock second. */
  tokensPerSecond: number;
  /** Completion tokens per second of this process's CPU time. */
  tokensPerCpuSecond: number;
}

export interface NativeDecodeRow {
  mode: "exact" | "fast";
  sequences: number;
  /** Through the native loop. */
  native: DecodeThroughput;
  /** Through node-llama-cpp's evaluate API. */
  nodeLlamaCpp: DecodeThroughput;
  /** native / nodeLlamaCpp, in wall-clock tokens per second. */
  speedup: number;
  /** native / nodeLlamaCpp, in tokens per CPU-second. */
  cpuSpeedup: number;
}

export interface NativeDecodeResult {
  benchmark: "native-decode";
  preset: ModelPresetName;
  threads: number;
  maxTokens: number;
  /** The machine's one-minute load average when the measurement ended, and its cores: context for the figures. */
  loadAverage: number;
  cores: number;
  results: NativeDecodeRow[];
}

async function throughput(modelPath: string, decoder: Decoder, mode: "exact" | "fast", sequences: number, options: NativeDecodeOptions): Promise<DecodeThroughput> {
  const client = await LlamaInferenceClient.create({ modelPath, decoder, mode, sequences, threads: options.threads, contextSize: 512 });
  try {
    const requests = (round: number): GenerationRequest[] =>
      Array.from({ length: 2 * sequences }, (_, index) => ({
        messages: [{ role: "user", content: `benchmark prompt ${round}.${index}` }],
        sampler: { ...DEFAULT_SAMPLER, maxTokens: options.maxTokens, seed: round * 1000 + index },
        constraint: null,
      }));
    await client.generate(requests(0).slice(0, sequences));
    const best: DecodeThroughput = { tokensPerSecond: 0, tokensPerCpuSecond: 0 };
    for (let round = 1; round <= options.rounds; round++) {
      const started = performance.now();
      const cpuBefore = process.cpuUsage();
      const outputs = await client.generate(requests(round));
      const cpu = process.cpuUsage(cpuBefore);
      const seconds = (performance.now() - started) / 1000;
      const tokens = outputs.reduce((sum, output) => sum + output.completionTokenIds.length, 0);
      best.tokensPerSecond = Math.max(best.tokensPerSecond, Math.round(tokens / seconds));
      best.tokensPerCpuSecond = Math.max(best.tokensPerCpuSecond, Math.round(tokens / ((cpu.user + cpu.system) / 1e6)));
    }
    return best;
  } finally {
    await client.dispose();
  }
}

export async function measureNativeDecode(options: NativeDecodeOptions): Promise<NativeDecodeResult> {
  const folder = await mkdtemp(join(tmpdir(), "selfplay-native-decode-"));
  try {
    const { path } = await createRandomModel({ path: join(folder, `${options.preset}.gguf`), preset: options.preset, architecture: "llama", seed: 0 });
    const results: NativeDecodeRow[] = [];
    for (const mode of options.modes) {
      for (const sequences of options.sequenceCounts) {
        const native = await throughput(path, "native", mode, sequences, options);
        const nodeLlamaCpp = await throughput(path, "node-llama-cpp", mode, sequences, options);
        const ratio = (key: keyof DecodeThroughput) => Number((native[key] / nodeLlamaCpp[key]).toFixed(2));
        results.push({ mode, sequences, native, nodeLlamaCpp, speedup: ratio("tokensPerSecond"), cpuSpeedup: ratio("tokensPerCpuSecond") });
      }
    }
    return {
      benchmark: "native-decode",
      preset: options.preset,
      threads: options.threads,
      maxTokens: options.maxTokens,
      loadAverage: Number(loadavg()[0]!.toFixed(2)),
      cores: availableParallelism(),
      results,
    };
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const quick = process.argv.includes("--quick");
  const threadsFlag = process.argv.indexOf("--threads");
  const threads = threadsFlag >= 0 ? Number(process.argv[threadsFlag + 1]) : 1;
  const options: NativeDecodeOptions = quick
    ? { preset: "tiny", sequenceCounts: [1, 4], modes: ["exact"], threads, maxTokens: 16, rounds: 1 }
    : { preset: "medium", sequenceCounts: [1, 4, 16], modes: ["exact", "fast"], threads, maxTokens: 128, rounds: 3 };
  console.log(JSON.stringify(await measureNativeDecode(options)));
}
