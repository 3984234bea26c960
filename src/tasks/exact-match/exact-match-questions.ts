import { readFileSync } from "node:fs";
import { z } from "zod";
import { InvalidInputError } from "../../core/errors/index.js";

/** A question, its exact answer, and optionally its cluster (for the frontier and group sizing: `frontier.mode`, `frontier.groupSizing`). */
export type ExactMatchQuestion = { question: string; answer: string; cluster?: string };

const QuestionLineSchema = z.strictObject({
  question: z.string().min(1),
  answer: z.union([z.string(), z.number()]).transform(String),
  cluster: z.union([z.string().min(1), z.number()]).transform(String).optional(),
});

/**
 * The questions of a JSONL file, one `{"question": …, "answer": …}` a line,
 * optionally with a `"cluster"` (on every line or on none); a bad line is an
 * InvalidInputError naming `field`, `file:line` and what it needs.
 */
export function readQuestions(path: string, field = "environment.data"): ExactMatchQuestion[] {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    throw new InvalidInputError(field, `a readable JSONL file of {"question", "answer"} lines (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`, path);
  }
  const questions: ExactMatchQuestion[] = [];
  text.split("\n").forEach((line, index) => {
    if (line.trim() === "") return;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      throw new InvalidInputError(`${field} (${path}:${index + 1})`, 'a JSON object {"question": "…", "answer": "…"}', line.slice(0, 80));
    }
    const parsed = QuestionLineSchema.safeParse(value);
    if (!parsed.success) throw new InvalidInputError(`${field} (${path}:${index + 1})`, `{"question": a non-empty string, "answer": a string or number, optionally "cluster": a non-empty string or number} and no other key (${parsed.error.issues[0]?.message ?? "invalid"})`, value);
    if (questions.length > 0 && (questions[0]?.cluster === undefined) !== (parsed.data.cluster === undefined)) {
      throw new InvalidInputError(`${field} (${path}:${index + 1}).cluster`, `a "cluster" on every line or on none (line 1 has ${questions[0]?.cluster === undefined ? "none" : "one"})`, parsed.data.cluster ?? null);
    }
    questions.push(parsed.data.cluster === undefined ? { question: parsed.data.question, answer: parsed.data.answer } : parsed.data);
  });
  if (questions.length === 0) throw new InvalidInputError(field, "a file with at least one question", path);
  return questions;
}

/**
 * The default questions: every two-digit addition and subtraction `a+b=`,
 * `a-b=` (a, b in 10–99), in the bundled base's own format. The base answers
 * about a third of them greedily (59% of the additions, 10% of the
 * subtractions), so groups of attempts disagree and GRPO has a signal.
 * (Three-term sums, which it never saw, it answers 0–1% of the time even
 * within 8 samples: nothing to learn from.) Each is clustered by
 * `twoDigitCluster`.
 */
export function twoDigitQuestions(): ExactMatchQuestion[] {
  const questions: ExactMatchQuestion[] = [];
  for (let a = 10; a < 100; a++) {
    for (let b = 10; b < 100; b++) {
      questions.push({ question: `${a}+${b}=`, answer: String(a + b), cluster: twoDigitCluster(a, "+", b) }, { question: `${a}-${b}=`, answer: String(a - b), cluster: twoDigitCluster(a, "-", b) });
    }
  }
  return questions;
}

/**
 * The cluster of a two-digit `a ± b`, by what makes it hard: additions by
 * whether the units carry and whether the sum reaches 100 (`add`,
 * `add-carry`, `add-hundreds`, `add-carry-hundreds`); subtractions by whether
 * the units borrow and whether the difference is negative (`subtract`,
 * `subtract-borrow`, `subtract-negative`).
 */
export function twoDigitCluster(a: number, operation: "+" | "-", b: number): string {
  if (operation === "+") return `add${(a % 10) + (b % 10) >= 10 ? "-carry" : ""}${a + b >= 100 ? "-hundreds" : ""}`;
  if (a < b) return "subtract-negative";
  return (a % 10) < (b % 10) ? "subtract-borrow" : "subtract";
}
