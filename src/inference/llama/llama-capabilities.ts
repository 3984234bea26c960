import type { InferenceCapabilities } from "../../core/inference-client.js";
import type { LlamaInferenceClientOptionsSchema } from "./llama-client-options.js";

/**
 * What a LlamaInferenceClient with these (parsed) options can do; also what a
 * RolloutPool's per-worker engines declare before any worker has opened one.
 */
export function llamaCapabilities(options: Pick<ReturnType<typeof LlamaInferenceClientOptionsSchema.parse>, "mode" | "sequences">): InferenceCapabilities {
  return {
    tokenIds: true,
    exactLogprobs: options.mode === "exact",
    grammars: true,
    jsonSchema: true,
    lora: true,
    parallelSequences: options.sequences,
    prefixTokens: true,
  };
}
