import { deriveStream } from "../../core/random/random-stream.js";
import { problemsOfSplit } from "./arithmetic-task.js";
import type { ArithmeticExample } from "./evaluate-arithmetic.js";

/** A held-out problem as the evaluators take it. */
export type HeldOutExample = ArithmeticExample & { cluster: string };

/**
 * `count` held-out problems drawn without replacement by the stream of
 * `seed`, in split order; all of them when `count` is undefined or larger.
 * Evaluations during pretraining and training use the same draw (seed 0), so
 * their accuracies compare, and a draw is spread over every cluster rather
 * than the first problems of the split (nearly all additions).
 */
export function heldOutExamples(count?: number, seed = 0): HeldOutExample[] {
  const examples = problemsOfSplit("held-out").map((problem) => ({ problem: problem.text, answer: String(problem.answer), cluster: problem.cluster }));
  if (count === undefined || count >= examples.length) return examples;
  return sampleWithoutReplacement(examples, count, seed);
}

/** `count` items drawn without replacement by a seeded stream, in their original order. */
export function sampleWithoutReplacement<Item>(items: readonly Item[], count: number, seed: number): Item[] {
  const random = deriveStream(seed, "eval-sample");
  const indices = items.map((_, index) => index);
  for (let index = 0; index < count; index++) {
    const other = index + Math.floor(random.next() * (indices.length - index));
    [indices[index], indices[other]] = [indices[other] as number, indices[index] as number];
  }
  return indices.slice(0, count).sort((a, b) => a - b).map((index) => items[index] as Item);
}
