import { describeThreads, type ThreadChoice } from "../../core/thread-choice.js";
import type { ContextSizeChoice } from "./choose-context-size.js";

/** What a LlamaInferenceClient settled on when it was created: each sequence's context and the decode's CPU threads, with why. */
export interface EngineSettings {
  context: ContextSizeChoice;
  threads: ThreadChoice;
}

/** The line stderr says under the device's: `engine: 8192-token context a sequence (the file's context_length), 1 decode thread(s) (…)`. */
export function describeEngineSettings(settings: EngineSettings): string {
  return `engine: ${settings.context.contextSize}-token context a sequence (${settings.context.reason}), ${describeThreads(settings.threads, "decode")}`;
}
