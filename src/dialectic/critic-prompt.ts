import type { Messages } from "../core/schemas/message.js";

export interface CriticPromptOptions {
  /** What the critic looks at hardest, or undefined for everything. */
  focus: string | undefined;
  /** The JSON object the critic must reply with, shown as a template. */
  answerFormat: string;
}

/**
 * The specification's critic prompt, asking for JSON: the strict path
 * constrains the output to it, and plain-text critics mostly follow it.
 */
export function criticMessages(task: string, proposal: string, options: CriticPromptOptions): Messages {
  const focus = options.focus === undefined ? "" : `, focused on ${options.focus}`;
  return [
    {
      role: "system",
      content:
        `You are a strict but fair critic${focus}. Evaluate the proposal: does it fully address the task, ` +
        "is it correct, is it well structured, what errors does it have, how could it be improved? " +
        "Don't approve unless quality is genuinely high. Reply with one JSON object: " +
        `${options.answerFormat} (at most 4 issues and 4 suggestions, each under 80 characters; feedback under 200).`,
    },
    { role: "user", content: `TASK: ${task}\n\nPROPOSAL TO EVALUATE:\n${proposal}` },
  ];
}
