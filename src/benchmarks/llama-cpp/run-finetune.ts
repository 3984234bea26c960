import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { LlamaCppToolError } from "../errors/index.js";
import { finetuneTokensPerSecond } from "./parse-finetune-output.js";
import { runProcess } from "./run-process.js";

export interface FinetuneOptions {
  /** The llama-finetune executable (findLlamaCppTool). */
  toolPath: string;
  /** An f32 model: llama.cpp trains nothing else on the CPU. */
  modelPath: string;
  /**
   * Tokens per training sequence: the model's training context (llama.cpp's
   * training loop walks `n_ctx_train` positions, whatever `-c` says).
   */
  contextLength: number;
  threads: number;
  /** Training sequences in the epoch (3 at least); each is one AdamW step (batch = ubatch = context). */
  sequences: number;
  /** What to train on, one token a byte; `trainingText` of enough characters. */
  text: (characters: number) => string;
}

const TIMEOUT_MILLISECONDS = 20 * 60 * 1000;

/**
 * One epoch of llama.cpp's own training (forward, backward, AdamW over every
 * weight) on `sequences` windows of the text, halfway overlapping, no
 * validation split. Returns training tokens per second between its steps' logged start times.
 */
export async function runFinetune(options: FinetuneOptions): Promise<number> {
  const { contextLength } = options;
  // llama-finetune's windows start every n_ctx/2 tokens; half a stride more keeps the count exact if a BOS token is added.
  const stride = contextLength / 2;
  const characters = contextLength + 1 + stride * options.sequences + stride / 2;
  const folder = await mkdtemp(join(tmpdir(), "selfplay-finetune-"));
  try {
    const textPath = join(folder, "train.txt");
    await writeFile(textPath, options.text(characters).slice(0, characters));
    const threads = String(options.threads);
    const context = String(contextLength);
    const args = [
      "--model", options.modelPath,
      "--file", textPath,
      "--ctx-size", context,
      "--batch-size", context,
      "--ubatch-size", context,
      "--threads", threads,
      "--threads-batch", threads,
      "--flash-attn", "off",
      "-epochs", "1",
      "-opt", "adamw",
      "-lr", "1e-4",
      "-wd", "0.01",
      "-val-split", "0",
      "--output-file", join(folder, "finetuned.gguf"),
      // Each optimizer step's start is read from the timestamped log.
      "--log-timestamps",
      "--log-prefix",
      "--log-colors", "off",
    ];
    const outcome = await runProcess(options.toolPath, args, { timeoutMilliseconds: TIMEOUT_MILLISECONDS });
    if (outcome.error !== undefined || outcome.status !== 0) {
      const lastLine = outcome.stderr.trim().split(/[\r\n]/).at(-1) ?? "";
      const how = outcome.error?.message ?? (outcome.signal === null ? `exit code ${outcome.status}` : `signal ${outcome.signal}`);
      throw new LlamaCppToolError("llama-finetune", `failed (${how}): ${lastLine}; command: ${options.toolPath} ${args.join(" ")}`);
    }
    return finetuneTokensPerSecond(`${outcome.stdout}\n${outcome.stderr}`, contextLength);
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}
