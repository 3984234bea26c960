import type { LlamaModel, Token } from "node-llama-cpp";
import { firstStop } from "./first-stop.js";

/**
 * The text of a completion and whether a stop string ended it: an
 * end-of-generation token is kept among the tokens (the policy chose to stop)
 * but not in the text, and the text ends before the first stop string.
 */
export function completionText(model: LlamaModel, tokens: readonly Token[], stops: readonly string[]): { text: string; stopped: boolean } {
  const last = tokens.at(-1);
  const decoded = model.detokenize(last !== undefined && model.isEogToken(last) ? tokens.slice(0, -1) : [...tokens]);
  const stopAt = firstStop(decoded, stops);
  return { text: stopAt === undefined ? decoded : decoded.slice(0, stopAt), stopped: stopAt !== undefined };
}
