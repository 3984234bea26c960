import type { Messages } from "../../core/schemas/message.js";
import { DREAM_SOLVER_ROLE } from "./dream-solver-role.js";

/** What the solver is shown for one attempt. */
export interface SolverPromptInput {
  /** The challenge prompt, twist included. */
  challengePrompt: string;
  /** The file the solution must write. */
  outputFile: string;
  /** The cluster's "### SKILL PLAYBOOK:" block ("" when no lesson applies). */
  playbookBlock: string;
  /** Short read-only excerpts of the journal's past failures in this cluster. */
  journalExcerpts: readonly string[];
  /** The error summary of each earlier failed attempt at this challenge, oldest first. */
  previousErrors: readonly string[];
}


/** The solver's conversation for one attempt: the playbook, past failures, the task, and earlier attempts' errors. */
export function solverPrompt(input: SolverPromptInput): Messages {
  const parts: string[] = [];
  if (input.playbookBlock.length > 0) parts.push(input.playbookBlock.trimEnd());
  if (input.journalExcerpts.length > 0) parts.push(`### PAST FAILURES (read-only journal):\n${input.journalExcerpts.map((line) => `- ${line}`).join("\n")}`);
  parts.push(`### TASK:\n${input.challengePrompt}\nWrite the answer to ${input.outputFile}.`);
  if (input.previousErrors.length > 0) {
    parts.push(`### YOUR EARLIER ATTEMPTS FAILED:\n${input.previousErrors.map((error, index) => `Attempt ${index + 1}: ${error}`).join("\n")}`);
  }
  return [
    { role: "system", content: DREAM_SOLVER_ROLE.systemPrompt },
    { role: "user", content: parts.join("\n\n") },
  ];
}
