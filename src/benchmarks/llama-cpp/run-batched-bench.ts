import { LlamaCppToolError } from "../errors/index.js";
import { DECODE_SETTINGS, nativeBatchSize, type DecodeMode } from "../rollout/decode-settings.js";
import { parseBatchedBenchOutput, type BatchedBenchRow } from "./parse-batched-bench-output.js";
import { runProcess } from "./run-process.js";

export interface BatchedBenchOptions {
  /** The llama-batched-bench executable (findLlamaCppTool, sameLibraryBatchedBench). */
  toolPath: string;
  /** Its working folder. Default: this process's. */
  workingFolder?: string;
  modelPath: string;
  promptTokens: number;
  generatedTokens: number;
  sequences: number;
  threads: number;
  mode: DecodeMode;
  /** Context cells per sequence, as our client gets them. */
  contextPerSequence: number;
  /** Measurements of the configuration; the fastest counts (other work on the machine only slows one down). */
  rounds: number;
}

// A medium-model cell takes seconds; minutes mean something is stuck.
const TIMEOUT_MILLISECONDS = 10 * 60 * 1000;
/** Runs until `rounds` lines came back: on a busy machine a short run can exit before its log thread wrote anything. */
const ATTEMPTS = 3;

/**
 * llama.cpp's own batched decoding of random tokens: all `sequences` prompts
 * in one pass, then one decode step per generated token for all of them
 * together, with the same batch, threads, KV cache type and flash attention as our engine.
 */
export async function runBatchedBench(options: BatchedBenchOptions): Promise<BatchedBenchRow> {
  const settings = DECODE_SETTINGS[options.mode];
  const batch = String(nativeBatchSize(options.sequences, options.contextPerSequence));
  const threads = String(options.threads);
  const args = [
    "--model", options.modelPath,
    "--ctx-size", String(options.sequences * options.contextPerSequence),
    "--batch-size", batch,
    "--ubatch-size", batch,
    "--threads", threads,
    "--threads-batch", threads,
    "--flash-attn", settings.flashAttention,
    "--cache-type-k", settings.kvCacheType,
    "--cache-type-v", settings.kvCacheType,
    "-npp", String(options.promptTokens),
    "-ntg", String(options.generatedTokens),
    // The same configuration once per round, and once more: the tool prints through a log thread it does not flush at
    // exit (llama.cpp issue 22142), so its last lines can be lost; the earlier ones are written while the next round runs.
    "-npl", Array.from({ length: options.rounds + 1 }, () => options.sequences).join(","),
    "--output-format", "jsonl",
  ];
  const rows: BatchedBenchRow[] = [];
  for (let attempt = 1; attempt <= ATTEMPTS && rows.length < options.rounds; attempt++) {
    const outcome = await runProcess(options.toolPath, args, { cwd: options.workingFolder, timeoutMilliseconds: TIMEOUT_MILLISECONDS });
    if (outcome.error !== undefined || outcome.status !== 0) {
      const lastLine = outcome.stderr.trim().split("\n").at(-1) ?? "";
      const how = outcome.error?.message ?? (outcome.signal === null ? `exit code ${outcome.status}` : `signal ${outcome.signal}`);
      throw new LlamaCppToolError("llama-batched-bench", `failed (${how}): ${lastLine}; command: ${options.toolPath} ${args.join(" ")}`);
    }
    rows.push(...parseBatchedBenchOutput(`${outcome.stdout}\n${outcome.stderr}`));
  }
  if (rows.length === 0) {
    throw new LlamaCppToolError("llama-batched-bench", `printed no result line in ${ATTEMPTS} runs (its log thread lost them at exit); command: ${options.toolPath} ${args.join(" ")}`);
  }
  // The best of `rounds` measurements counts, as on our side.
  return rows.slice(0, options.rounds).reduce((best, row) => (row.tokensPerSecond > best.tokensPerSecond ? row : best));
}
