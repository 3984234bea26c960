import { problemsOfSplit } from "../../tasks/arithmetic/arithmetic-task.js";

/**
 * At least `characters` of plain ASCII training text — `23+45=68` lines of
 * the training split, in order — that both trainers read: one byte, one token,
 * for the byte vocabulary of project-made models in tfjs and in llama.cpp alike
 * (`trainingTokens` writes it in any model's own vocabulary).
 */
export function trainingText(characters: number): string {
  const lines = problemsOfSplit("train").map((problem) => `${problem.text}=${problem.answer}\n`);
  let text = "";
  for (let index = 0; text.length < characters; index++) text += lines[index % lines.length];
  return text;
}
