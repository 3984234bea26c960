import { z } from "zod";

/**
 * How an answer is read out of a completion:
 * - `boxed`: the last `\boxed{…}` (braces balanced), as math RL rewards read it (verl's and TRL's `math_verify` formats);
 * - `answer-line`: what follows the last `Answer:` (any case, up to the end of its line);
 * - `last-number`: the last number of the text (thousands commas dropped);
 * - `tolerant`: `boxed`, else `answer-line`, else `last-number` — what a chat model's reply gives up however it is worded;
 * - `first-integer`: the first integer (the bundled base's bare `23+45=68`);
 * - `first-line`: the first line, trimmed;
 * - `text`: all of it, trimmed.
 */
const EXTRACTORS = ["boxed", "answer-line", "last-number", "tolerant", "first-integer", "first-line", "text"] as const;
export const AnswerExtractorSchema = z.enum(EXTRACTORS, { error: `an answer extractor: ${EXTRACTORS.join(", ")}` });
export type AnswerExtractor = z.infer<typeof AnswerExtractorSchema>;

/** The answer `extractor` reads out of `completion`, or undefined when the completion has none in that form. */
export function extractAnswer(extractor: AnswerExtractor, completion: string): string | undefined {
  switch (extractor) {
    case "boxed":
      return boxedAnswer(completion);
    case "answer-line":
      return answerLine(completion);
    case "last-number":
      return lastNumber(completion);
    case "tolerant":
      return boxedAnswer(completion) ?? answerLine(completion) ?? lastNumber(completion);
    case "first-integer":
      return firstInteger(completion);
    case "first-line":
      return (completion.split("\n")[0] ?? "").trim();
    case "text":
      return completion.trim();
  }
}

/** The content of the last `\boxed{…}`, nested braces kept; undefined when there is none or it is not closed. */
export function boxedAnswer(completion: string): string | undefined {
  const start = completion.lastIndexOf("\\boxed{");
  if (start < 0) return undefined;
  let depth = 0;
  for (let index = start + "\\boxed{".length - 1; index < completion.length; index++) {
    if (completion[index] === "{") depth++;
    else if (completion[index] === "}" && --depth === 0) return completion.slice(start + "\\boxed{".length, index).trim();
  }
  return undefined;
}

/**
 * What follows the last `Answer:` or `answer is:` (any case): its number when
 * it opens with one (`Answer: 9 pencils.` → `9`, `$1,250` → `1250`), else the
 * rest of its line without markdown emphasis or a final full stop.
 */
export function answerLine(completion: string): string | undefined {
  const matches = [...completion.matchAll(/answer\s*(?:is)?\s*:([^\n]*)/gi)];
  const last = matches.at(-1)?.[1];
  if (last === undefined) return undefined;
  const answer = last.replace(/\*+/g, "").trim();
  const number = /^\$?(-?\d[\d,]*(?:\.\d+)?)/.exec(answer)?.[1];
  if (number !== undefined) return number.replace(/,/g, "");
  const text = answer.replace(/\.$/, "").trim();
  return text === "" ? undefined : text;
}

/** The last number of the text (`-3`, `1,250`, `2.5`), as written less its thousands commas. */
export function lastNumber(completion: string): string | undefined {
  const numbers = completion.match(/-?\d[\d,]*(?:\.\d+)?/g);
  const last = numbers?.at(-1);
  return last === undefined ? undefined : last.replace(/,/g, "").replace(/\.$/, "");
}

/** The first integer of the text, without leading zeros (`068` → `68`). */
export function firstInteger(completion: string): string | undefined {
  const match = /-?\d+/.exec(completion);
  return match ? String(Number(match[0])) : undefined;
}
