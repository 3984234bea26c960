import type { InferenceClient } from "../../core/inference-client.js";
import { DEFAULT_SAMPLER } from "../../core/schemas/sampler-settings.js";
import type { EnvironmentEvaluateOptions, EnvironmentEvaluation } from "../../environments/environment.js";
import { readAnswer, type ExactMatchQuestion } from "./exact-match-episode.js";

export interface EvaluateExactMatchOptions extends EnvironmentEvaluateOptions {
  /** Completion tokens at most per answer. */
  maxTokens: number;
  /** How the answer is read: the completion's first integer, or all of it trimmed. */
  answerFormat: "integer" | "text";
}

/** One answer asked for: a question at a temperature and seed. */
interface Attempt {
  question: ExactMatchQuestion;
  temperature: number;
  seed: number;
}

/**
 * Greedy accuracy on the held-out questions, and pass@k with `samples`: the
 * share of questions some of `samples` answers at temperature 1 got right.
 */
export async function evaluateExactMatch(client: InferenceClient, questions: readonly ExactMatchQuestion[], options: EvaluateExactMatchOptions): Promise<EnvironmentEvaluation> {
  const greedy = await attemptsCorrect(client, questions.map((question) => ({ question, temperature: 0, seed: 0 })), options);
  const evaluation: EnvironmentEvaluation = { heldOutAccuracy: greedy.filter(Boolean).length / Math.max(questions.length, 1), n: questions.length };
  const samples = options.samples ?? 0;
  if (samples > 0) {
    const seed = options.seed ?? 0;
    // The seeds arithmetic's pass@k uses: sample s of question i draws from seed + i·k + s.
    const attempts = questions.flatMap((question, index) => Array.from({ length: samples }, (_, sample) => ({ question, temperature: 1, seed: (seed + index * samples + sample) >>> 0 })));
    const correct = await attemptsCorrect(client, attempts, options);
    const solved = questions.filter((_, index) => correct.slice(index * samples, (index + 1) * samples).some(Boolean)).length;
    evaluation.passAtK = { k: samples, value: solved / Math.max(questions.length, 1) };
  }
  return evaluation;
}

/** Whether each attempt's answer matches its question's, a batch of the client's parallel sequences at a time, in order. */
async function attemptsCorrect(client: InferenceClient, attempts: readonly Attempt[], options: EvaluateExactMatchOptions): Promise<boolean[]> {
  const correct: boolean[] = [];
  const size = client.capabilities.parallelSequences;
  for (let start = 0; start < attempts.length; start += size) {
    const batch = attempts.slice(start, start + size);
    const outputs = await client.generate(
      batch.map(({ question, temperature, seed }) => ({
        messages: [{ role: "user" as const, content: question.question }],
        sampler: { ...DEFAULT_SAMPLER, temperature, maxTokens: options.maxTokens, seed },
        constraint: null,
      })),
    );
    outputs.forEach((output, index) => correct.push(readAnswer(output.text, options.answerFormat)?.trim() === (batch[index] as Attempt).question.answer.trim()));
  }
  return correct;
}
