import type { Messages } from "../../core/schemas/message.js";

/**
 * The task as a role saw it: the contents of its prompt's non-system
 * messages, one a line (`23+45=` for the arithmetic solver). PRM labels and
 * the frontier's representative states both use it, so the PRM scores the
 * states it was trained on.
 */
export function taskText(prompt: Messages): string {
  return prompt
    .filter((message) => message.role !== "system")
    .map((message) => message.content)
    .join("\n");
}
