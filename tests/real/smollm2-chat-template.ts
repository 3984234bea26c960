import type { Messages } from "../../src/core/schemas/message.js";

/**
 * A conversation as SmolLM2's chat template writes it when the conversation opens with a system message: each
 * message a ChatML block, then the assistant's turn opened for the reply. The `real` tests compare the engine's
 * prompt tokens with this text; tests/real/inference/llama/prompt-format.test.ts checks those tokens against the
 * file's own template (rendered by @huggingface/jinja), so the two checks together hold this text to the file's.
 */
export function smollm2ChatTemplate(messages: Messages): string {
  // Without a system message the file's template writes its default one first, which this text leaves out.
  if (messages[0]?.role !== "system") throw new Error("smollm2ChatTemplate: the conversation opens without a system message; start it with one (the template's default system turn is not written here)");
  return `${messages.map(({ role, content }) => `<|im_start|>${role}\n${content}<|im_end|>\n`).join("")}<|im_start|>assistant\n`;
}
