import { z } from "zod";
import type { Messages } from "../../core/schemas/message.js";
import { solverMessages } from "../arithmetic/arithmetic-prompts.js";

/**
 * How the solver is asked a problem: `bare`, the bundled base's `12+7=`;
 * `words`, a question a chat model answers, `What is 12 + 7?`.
 */
export const SolverPromptSchema = z.enum(["bare", "words"]);
export type SolverPrompt = z.infer<typeof SolverPromptSchema>;

/** The solver's turn for `problem` (canonical text, `(12+7)*3`) in the form `prompt`; the role's system prompt goes before it. */
export function solverPrompt(problem: string, prompt: SolverPrompt): Messages {
  if (prompt === "bare") return solverMessages(problem);
  return [{ role: "user", content: `What is ${problem.replace(/([-+*])/g, " $1 ")}?` }];
}
