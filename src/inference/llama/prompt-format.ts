import { Template } from "@huggingface/jinja";
import type { LlamaModel, Token } from "node-llama-cpp";
import type { Messages } from "../../core/schemas/message.js";
import { ChatTemplateError } from "../errors/index.js";

/** Turns a conversation into the prompt tokens the model continues from. */
export interface PromptFormat {
  /** `plain` for models without a chat template (ours), `chat-template` for a file's own template. */
  readonly name: string;
  tokenize(messages: Messages): Token[];
}

/**
 * Project-made byte models have no chat template: they read `role: content`
 * lines and continue after `assistant:`. A model with a chat template in its
 * GGUF gets that template itself, rendered as transformers'
 * `apply_chat_template(messages, add_generation_prompt=True)` renders it and
 * tokenized as one string with special tokens parsed, as llama.cpp's server
 * does. Not node-llama-cpp's `resolveChatWrapper`: on SmolLM2 its ChatML
 * wrapper left out the template's default system line and put an extra BOS
 * (`<|im_start|>`) first; its Jinja wrapper tokenizes each message apart from
 * the template's text, so a message that starts with two spaces or a newline
 * got other ids than the template gives.
 */
export function promptFormatFor(model: LlamaModel): PromptFormat {
  const source = (model.fileInfo.metadata as { tokenizer?: { chat_template?: unknown } }).tokenizer?.chat_template;
  if (typeof source !== "string" || source.length === 0) return plainFormat(model);
  const modelPath = model.filename ?? "the model file";
  let template: Template;
  try {
    template = new Template(source);
  } catch (error) {
    throw new ChatTemplateError(
      modelPath,
      `does not parse (${(error as Error).message})`,
      "write one @huggingface/jinja parses into the file's tokenizer.chat_template (llama.cpp's gguf_new_metadata.py --chat-template)",
      { cause: error },
    );
  }
  const { bosString, eosString } = model.tokens;
  return {
    name: "chat-template",
    tokenize: (messages) => {
      let text: string;
      try {
        text = template.render({ messages, add_generation_prompt: true, bos_token: bosString ?? "", eos_token: eosString ?? "" });
      } catch (error) {
        // The template's own raise_exception (roles that must alternate, say) lands here too.
        throw new ChatTemplateError(
          modelPath,
          `refused the conversation (${(error as Error).message})`,
          "give the conversation the roles and order the template asks for",
          { cause: error },
        );
      }
      // The template writes any BOS it wants (`{{ bos_token }}`); the tokenizer adds none.
      return model.tokenize(text, true);
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
