import { SelfplayError } from "../../core/errors/index.js";

/**
 * A model file's chat template (`tokenizer.chat_template`) does not parse, or
 * refused a conversation (its `raise_exception`, e.g. roles that must alternate).
 */
export class ChatTemplateError extends SelfplayError {
  override readonly name = "ChatTemplateError";
  constructor(readonly modelPath: string, detail: string, fix: string, options?: ErrorOptions) {
    super(`the chat template of ${modelPath} ${detail}; ${fix}`, options);
  }
}
