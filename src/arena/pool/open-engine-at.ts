import type { LlamaInferenceClientOptions } from "../../inference/llama/llama-client-options.js";
import type { LlamaInferenceClient } from "../../inference/llama/llama-inference-client.js";
import type { WorkerWeights } from "./pool-messages.js";

/**
 * Opens an engine that serves `weights` and reports their policy version: a
 * later version is opened at the base and swapped to, since only a swap sets the version.
 */
export async function openEngineAt(options: LlamaInferenceClientOptions, weights: WorkerWeights): Promise<LlamaInferenceClient> {
  // Imported here, not at the top: node-llama-cpp takes seconds to load, and pools with a shared engine never need it.
  const { LlamaInferenceClient } = await import("../../inference/llama/llama-inference-client.js");
  if (weights.policyVersion === 0) {
    return LlamaInferenceClient.create({ ...options, modelPath: weights.modelPath, loraPath: weights.loraPath });
  }
  const client = await LlamaInferenceClient.create({ ...options, modelPath: weights.modelPath, loraPath: undefined });
  try {
    await client.swapWeights(weights);
  } catch (error) {
    await client.dispose();
    throw error;
  }
  return client;
}
