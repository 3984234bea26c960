import { Template } from "@huggingface/jinja";
import { beforeAll, describe, expect, it } from "vitest";
import type { Messages } from "../../../../src/core/schemas/message.js";
import { promptFormatFor } from "../../../../src/inference/llama/prompt-format.js";
import { REAL_MODEL_SKIP_REASON, realModelAvailable } from "../../real-model.js";
import { useRealModelVocabulary } from "../../use-real-model-vocabulary.js";

/** SmolLM2's template writes this system turn when a conversation opens without one. */
const DEFAULT_SYSTEM_TURN = "<|im_start|>system\nYou are a helpful AI assistant named SmolLM, trained by Hugging Face<|im_end|>\n";

const CONVERSATIONS: Record<string, Messages> = {
  "one user turn, no system message": [{ role: "user", content: "What is 2+2?" }],
  "a system message and one user turn": [
    { role: "system", content: "Answer in one word." },
    { role: "user", content: "What is 2+2?" },
  ],
  "several turns, no system message": [
    { role: "user", content: "Hi!" },
    { role: "assistant", content: "Hello! How can I help?" },
    { role: "user", content: "Name a prime." },
    { role: "assistant", content: "7" },
    { role: "user", content: "Another one." },
  ],
  "a system message and several turns": [
    { role: "system", content: "You argue FOR the motion. Be brief and concrete." },
    { role: "user", content: "Motion: Tabs are better than spaces." },
    { role: "assistant", content: "Tabs let each reader pick the width." },
    { role: "user", content: "neg: Spaces look the same everywhere.\n\nneg: Mixed files break." },
  ],
  // Whitespace where a message meets the template's text: tokenized as one string, "\n" and the spaces merge.
  "messages that start with spaces and a newline": [
    { role: "user", content: "  indented" },
    { role: "assistant", content: "\nA new line first." },
    { role: "user", content: "ok " },
  ],
};

describe(`SmolLM2's chat template${REAL_MODEL_SKIP_REASON}`, () => {
  const model = useRealModelVocabulary();
  let reference: Template;

  // Runs after the vocabulary's own beforeAll: vitest runs a describe's beforeAll hooks in the order they are registered.
  beforeAll(() => {
    if (realModelAvailable) reference = new Template((model().fileInfo.metadata as { tokenizer: { chat_template: string } }).tokenizer.chat_template);
  });

  /** The file's template rendered by @huggingface/jinja as transformers' apply_chat_template does, tokenized whole with special tokens. */
  function referenceIds(messages: Messages): number[] {
    const text = reference.render({ messages, add_generation_prompt: true, bos_token: model().tokens.bosString, eos_token: model().tokens.eosString });
    return model().tokenize(text, true);
  }

  it.skipIf(!realModelAvailable).each(Object.entries(CONVERSATIONS))("%s: the prompt ids are the file's own template's", (_name, messages) => {
    const format = promptFormatFor(model());
    expect(format.name).toBe("chat-template");
    expect(format.tokenize(messages)).toEqual(referenceIds(messages));
  });

  it.skipIf(!realModelAvailable)("opens with the template's default system turn only when the conversation has no system message, and ends at the assistant's turn", () => {
    const format = promptFormatFor(model());
    const imStart = model().tokenize("<|im_start|>", true);
    expect(imStart).toHaveLength(1);
    for (const messages of Object.values(CONVERSATIONS)) {
      const ids = format.tokenize(messages);
      const text = model().detokenize(ids, true);
      expect(text.startsWith(DEFAULT_SYSTEM_TURN)).toBe(messages[0]?.role !== "system");
      // One <|im_start|> per turn, the assistant's to come included: no BOS of its own before the first.
      const turns = messages.length + (messages[0]?.role === "system" ? 0 : 1) + 1;
      expect(ids.filter((id) => id === imStart[0])).toHaveLength(turns);
      expect(ids[0]).toBe(imStart[0]);
      expect(text.endsWith("<|im_end|>\n<|im_start|>assistant\n")).toBe(true);
    }
  });
});
