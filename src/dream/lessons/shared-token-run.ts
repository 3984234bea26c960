import { lessonTokens } from "./lesson-tokens.js";

/**
 * The first run of at least `length` consecutive tokens that `text` shares
 * with `source`, joined with spaces, or null when there is none.
 */
export function sharedTokenRun(text: string, source: string, length: number): string | null {
  const sourceGrams = new Set(grams(lessonTokens(source), length));
  return grams(lessonTokens(text), length).find((gram) => sourceGrams.has(gram)) ?? null;
}

function grams(tokens: readonly string[], length: number): string[] {
  const result: string[] = [];
  for (let start = 0; start + length <= tokens.length; start++) result.push(tokens.slice(start, start + length).join(" "));
  return result;
}
