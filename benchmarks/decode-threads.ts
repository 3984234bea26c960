// Decode threads: completion tokens per second of selfplay's native engine on a model file at 1 and at 2 CPU
// threads (more with --threads), at 1 and 16 sequences, exact mode, a 32-token prompt and `--tokens` completion
// tokens a sequence (the end of generation biased away, so every sequence runs to the end). Every timed round is
// printed, not only the best: on a shared machine their spread is the figure's honesty. The measurement behind
// `rolloutThreads`' threshold (MULTI_THREAD_DECODE_PARAMETERS).
//
//   npm run build && node dist/benchmarks/decode-threads.js --model FILE [--threads 2] [--tokens 64] [--rounds 3]   (prints JSON lines)
import { availableParallelism, loadavg } from "node:os";
import { pathToFileURL } from "node:url";
import { InvalidInputError } from "../src/core/errors/index.js";
import { loadLlama } from "../src/inference/llama/load-llama.js";
import { NativeGenerationEngine } from "../src/inference/native/native-generation-engine.js";
import { integerFlag } from "./integer-flag.js";

export interface DecodeThreadsCell {
  sequences: number;
  threads: number;
  /** Completion tokens per second of each timed round, in order. */
  tokensPerSecond: number[];
  /** The 1-minute load average when the cell ended. */
  loadAverage: number;
}

/** The cells of one model: for each sequence count, each thread count, `rounds` timed rounds after one short warm-up. */
export async function* measureDecodeThreads(modelPath: string, options: { threadCounts: readonly number[]; tokens: number; rounds: number }): AsyncGenerator<DecodeThreadsCell> {
  const vocabulary = await (await loadLlama("cpu")).loadModel({ modelPath, vocabOnly: true });
  const endTokens = [vocabulary.tokens.eos, vocabulary.tokens.eot].filter((token): token is NonNullable<typeof token> => token !== null);
  await vocabulary.dispose();
  for (const sequences of [1, 16]) {
    for (const threads of options.threadCounts) {
      const engine = await NativeGenerationEngine.create({ modelPath, sequences, contextSize: 512, threads, mode: "exact", device: "cpu" });
      try {
        const requests = (round: number, maxTokens: number) =>
          Array.from({ length: sequences }, (_, index) => ({
            // Ids 3–252: inside the project's 259-token byte vocabulary too, past its control tokens.
            promptTokenIds: Int32Array.from({ length: 32 }, (_, position) => 3 + ((position * 7 + index) % 250)),
            maxTokens,
            sampler: { temperature: 1, topK: 0, topP: 1, minP: 0, seed: round * 1000 + index },
            logitBias: new Map(endTokens.map((token) => [Number(token), -1000])),
          }));
        await engine.generate(requests(0, 4));
        const tokensPerSecond: number[] = [];
        for (let round = 1; round <= options.rounds; round++) {
          const started = performance.now();
          const results = await engine.generate(requests(round, options.tokens));
          const tokens = results.reduce((sum, result) => sum + result.completionTokenIds.length, 0);
          tokensPerSecond.push(Math.round(tokens / ((performance.now() - started) / 1000)));
        }
        yield { sequences, threads, tokensPerSecond, loadAverage: Number((loadavg()[0] ?? 0).toFixed(2)) };
      } finally {
        await engine.dispose();
      }
    }
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const at = process.argv.indexOf("--model");
  const modelPath = at === -1 ? undefined : process.argv[at + 1];
  if (modelPath === undefined) throw new InvalidInputError("--model", "the GGUF file to measure (--model FILE)");
  const threads = integerFlag("--threads", 2);
  const options = { threadCounts: [1, threads], tokens: integerFlag("--tokens", 64), rounds: integerFlag("--rounds", 3) };
  console.log(JSON.stringify({ benchmark: "decode-threads", model: modelPath, cores: availableParallelism(), ...options }));
  for await (const cell of measureDecodeThreads(modelPath, options)) console.log(JSON.stringify(cell));
}
