import type { Messages } from "../core/schemas/message.js";
import { constraintInjection } from "./escape-strategy.js";

/** What the proposer is shown in one round. */
export interface ProposerPromptInput {
  task: string;
  /** Extra context for the task; empty for none. */
  context: string;
  /** The previous round, absent in the first. */
  previous?: {
    proposal: string;
    critique: { score: number; feedback: string; issues: readonly string[]; suggestions: readonly string[] };
  };
  /** Issues injected by the inject-constraints escape; empty for none. */
  constraints: readonly string[];
  /** The adaptive engine also asks for a different approach when one keeps failing. */
  adaptive: boolean;
}

/** The specification's proposer prompts: a first proposal, or a refinement of the previous one from its critique. */
export function proposerMessages(input: ProposerPromptInput): Messages {
  const header = [`TASK: ${input.task}`];
  if (input.context !== "") header.push(`CONTEXT: ${input.context}`);
  const constraints = constraintInjection(input.constraints);
  if (constraints !== "") header.push(`CONSTRAINTS: ${constraints}`);
  const { previous } = input;
  if (previous === undefined) {
    return [
      {
        role: "user",
        content: `Create a high-quality response for this task.\n${header.join("\n")}\n\nProvide your best proposal. Focus on completeness and correctness.`,
      },
    ];
  }
  const list = (items: readonly string[]) => (items.length === 0 ? "None" : items.join(", "));
  const closing = input.adaptive
    ? "Address ALL issues. Try a DIFFERENT approach if the same approach keeps failing."
    : "Provide an improved proposal that addresses ALL the issues raised. Keep what works, fix what doesn't.";
  return [
    {
      role: "user",
      content:
        `Refine your previous proposal based on feedback.\n${header.join("\n")}\n\n` +
        `YOUR PREVIOUS PROPOSAL:\n${previous.proposal}\n\n` +
        `CRITIQUE RECEIVED:\nScore: ${Math.round(previous.critique.score * 100)}%\nFeedback: ${previous.critique.feedback}\n` +
        `Issues: ${list(previous.critique.issues)}\nSuggestions: ${list(previous.critique.suggestions)}\n\n${closing}`,
    },
  ];
}
