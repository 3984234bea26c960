import type { Messages } from "../core/schemas/message.js";

/** A stable text key for a conversation: the same messages always give the same key. */
export function conversationKey(messages: Messages): string {
  return messages.map((message) => `${message.role}: ${message.content}`).join("\n");
}
