import { resolveChatWrapper, type ChatHistoryItem, type LlamaModel, type Token } from "node-llama-cpp";
import type { Messages } from "../../core/schemas/message.js";

/** Turns a conversation into the prompt tokens the model continues from. */
export interface PromptFormat {
  /** `plain` for models without a chat template (ours), else the chat wrapper's name. */
  readonly name: string;
  tokenize(messages: Messages): Token[];
}

/**
 * Project-made byte models have no chat template: they read `role: content`
 * lines and continue after `assistant:`. A real model with a chat template in
 * its GGUF gets node-llama-cpp's matching chat wrapper (Llama 3, Qwen/ChatML, …).
 */
export function promptFormatFor(model: LlamaModel): PromptFormat {
  const template = (model.fileInfo.metadata as { tokenizer?: { chat_template?: unknown } }).tokenizer?.chat_template;
  if (typeof template !== "string" || template.length === 0) return plainFormat(model);
  const wrapper = resolveChatWrapper(model);
  return {
    name: wrapper.wrapperName,
    tokenize: (messages) => {
      const chatHistory: ChatHistoryItem[] = messages.map((message) =>
        message.role === "assistant"
          ? { type: "model", response: [message.content] }
          : { type: message.role, text: message.content },
      );
      // The empty model turn at the end is where generation continues, as in node-llama-cpp's LlamaChat.
      chatHistory.push({ type: "model", response: [] });
      return wrapper.generateContextState({ chatHistory }).contextText.tokenize(model.tokenizer);
    },
  };
}

function plainFormat(model: LlamaModel): PromptFormat {
  return {
    name: "plain",
    tokenize: (messages) =>
      model.tokenize(`${messages.map((message) => `${message.role}: ${message.content}\n`).join("")}assistant:`),
  };
}
