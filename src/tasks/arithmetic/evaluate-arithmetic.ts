import type { InferenceClient } from "../../core/inference-client.js";
import { DEFAULT_SAMPLER } from "../../core/schemas/sampler-settings.js";
import { firstInteger } from "../../core/answers/answer-extractors.js";
import { solverMessages } from "./arithmetic-prompts.js";

export interface ArithmeticExample {
  problem: string;
  answer: string;
}

export interface ArithmeticEvaluation {
  /** Share answered correctly by greedy decoding. */
  heldOutAccuracy: number;
  n: number;
  correct: number;
  /** Share with at least one correct answer among `samples` sampled at temperature 1 (when asked for). */
  passAtK?: { k: number; value: number };
  /** Accuracy per cluster, when the examples name one. */
  byCluster?: Record<string, { n: number; accuracy: number }>;
}

export interface EvaluateArithmeticOptions {
  /** Samples per problem for pass@k at temperature 1; 0 (default) skips it. */
  samples?: number;
  /** Seed of the pass@k samples. */
  seed?: number;
  /** Requests per `generate` call. Default: the client's parallel sequences. */
  batchSize?: number;
}

/**
 * Asks the model each problem in the solver's format and scores the first
 * integer of its reply by exact match: greedy accuracy, and pass@k when asked.
 */
export async function evaluateArithmetic(
  client: InferenceClient,
  examples: readonly (ArithmeticExample & { cluster?: string })[],
  options: EvaluateArithmeticOptions = {},
): Promise<ArithmeticEvaluation> {
  const batchSize = options.batchSize ?? client.capabilities.parallelSequences;
  const answer = async (example: ArithmeticExample, temperature: number, seed: number) => {
    const [output] = await client.generate([
      { messages: solverMessages(example.problem), sampler: { ...DEFAULT_SAMPLER, temperature, maxTokens: 8, seed }, constraint: null },
    ]);
    return firstInteger(output?.text ?? "") === String(Number(example.answer));
  };
  const greedy = await inBatches(examples, batchSize, (example) => answer(example, 0, 0));
  const correct = greedy.filter(Boolean).length;
  const evaluation: ArithmeticEvaluation = { heldOutAccuracy: examples.length === 0 ? 0 : correct / examples.length, n: examples.length, correct };
  if (examples.some((example) => example.cluster !== undefined)) {
    const clusters: Record<string, { n: number; accuracy: number }> = {};
    examples.forEach((example, index) => {
      const entry = (clusters[example.cluster ?? "unknown"] ??= { n: 0, accuracy: 0 });
      entry.n++;
      entry.accuracy += greedy[index] ? 1 : 0;
    });
    for (const entry of Object.values(clusters)) entry.accuracy /= entry.n;
    evaluation.byCluster = clusters;
  }
  const samples = options.samples ?? 0;
  if (samples > 0) {
    const seed = options.seed ?? 0;
    const solved = await inBatches(examples, Math.max(1, Math.floor(batchSize / samples)), async (example, index) => {
      const attempts = await Promise.all(Array.from({ length: samples }, (_, sample) => answer(example, 1, (seed + index * samples + sample) >>> 0)));
      return attempts.some(Boolean);
    });
    evaluation.passAtK = { k: samples, value: solved.filter(Boolean).length / Math.max(examples.length, 1) };
  }
  return evaluation;
}

/** Runs `work` on every item with at most `size` in flight, results in input order. */
async function inBatches<Item, Result>(items: readonly Item[], size: number, work: (item: Item, index: number) => Promise<Result>): Promise<Result[]> {
  const results: Result[] = [];
  for (let start = 0; start < items.length; start += size) {
    results.push(...(await Promise.all(items.slice(start, start + size).map((item, offset) => work(item, start + offset)))));
  }
  return results;
}
