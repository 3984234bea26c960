import type { InferenceClient } from "../../core/inference-client.js";
import type { JsonObject } from "../../core/json.js";
import type { Messages } from "../../core/schemas/message.js";
import { DEFAULT_SAMPLER } from "../../core/schemas/sampler-settings.js";
import type { EnvironmentEvaluateOptions, EnvironmentEvaluation } from "../../environments/environment.js";
import { scoreRubric, type RubricEntry } from "./dataset-rubric.js";

/** What a dataset's held-out evaluation reads each completion with. */
export interface DatasetEvaluator {
  readonly prompt: (item: JsonObject) => Messages;
  readonly rubric: readonly RubricEntry[];
  /** The reward function whose mean is the held-out accuracy (abstaining counts 0). */
  readonly evaluateBy: string;
  readonly maxTokens: number;
  /** The temperature pass@k samples at: the rollouts'. */
  readonly samplingTemperature: number;
  /** Whether a completion is right read only in the form the prompt asks for; absent: no `strictAccuracy`. */
  readonly strictlyCorrect?: (completion: string, item: JsonObject) => boolean;
}

/** One completion asked for: a row at a temperature and seed. */
interface Attempt {
  row: JsonObject;
  temperature: number;
  seed: number;
}

interface AttemptOutcome {
  score: number;
  strict: boolean;
  truncated: boolean;
  tokens: number;
}

/**
 * Greedy held-out accuracy (the mean of `evaluateBy`'s scores), and beside it in
 * `figures`: `truncated`, the share of greedy answers cut off at `maxTokens`;
 * `medianCompletionTokens`; and, with `strictlyCorrect`, `strictAccuracy`. With
 * `samples`, pass@k: the share of rows some of `samples` answers, sampled as the
 * rollouts are (`samplingTemperature`), scored positive on.
 */
export async function evaluateDataset(client: InferenceClient, rows: readonly JsonObject[], evaluator: DatasetEvaluator, options: EnvironmentEvaluateOptions = {}): Promise<EnvironmentEvaluation> {
  const greedy = await attempt(client, rows.map((row) => ({ row, temperature: 0, seed: 0 })), evaluator);
  const n = Math.max(rows.length, 1);
  const share = (count: number) => count / n;
  const figures: Record<string, number> = {
    truncated: share(greedy.filter((outcome) => outcome.truncated).length),
    medianCompletionTokens: median(greedy.map((outcome) => outcome.tokens)),
    ...(evaluator.strictlyCorrect && { strictAccuracy: share(greedy.filter((outcome) => outcome.strict).length) }),
  };
  const evaluation: EnvironmentEvaluation = { heldOutAccuracy: greedy.reduce((total, outcome) => total + outcome.score, 0) / n, n: rows.length, figures };
  const samples = options.samples ?? 0;
  if (samples > 0) {
    const seed = options.seed ?? 0;
    // Sample s of row i draws from seed + i·k + s, as the other environments' pass@k.
    const sampled = await attempt(client, rows.flatMap((row, index) => Array.from({ length: samples }, (_, sample) => ({ row, temperature: evaluator.samplingTemperature, seed: (seed + index * samples + sample) >>> 0 }))), evaluator);
    const solved = rows.filter((_, index) => sampled.slice(index * samples, (index + 1) * samples).some((outcome) => outcome.score > 0)).length;
    evaluation.passAtK = { k: samples, value: share(solved) };
  }
  return evaluation;
}

/** Each attempt's outcome, a batch of the client's parallel sequences at a time, in order. */
async function attempt(client: InferenceClient, attempts: readonly Attempt[], evaluator: DatasetEvaluator): Promise<AttemptOutcome[]> {
  const outcomes: AttemptOutcome[] = [];
  const size = client.capabilities.parallelSequences;
  for (let start = 0; start < attempts.length; start += size) {
    const batch = attempts.slice(start, start + size);
    const outputs = await client.generate(
      batch.map(({ row, temperature, seed }) => ({ messages: evaluator.prompt(row), sampler: { ...DEFAULT_SAMPLER, temperature, maxTokens: evaluator.maxTokens, seed }, constraint: null })),
    );
    outputs.forEach((output, index) => {
      const { row } = batch[index] as Attempt;
      outcomes.push({
        score: scoreRubric(evaluator.rubric, output.text, row).scores[evaluator.evaluateBy] ?? 0,
        strict: evaluator.strictlyCorrect?.(output.text, row) ?? false,
        truncated: output.finishReason === "length",
        tokens: output.completionTokenIds.length,
      });
    });
  }
  return outcomes;
}

function median(values: readonly number[]): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1 ? (sorted[middle] as number) : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}
