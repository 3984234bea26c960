import { afterAll, beforeAll } from "vitest";
import type { LlamaInferenceClientOptions } from "../../src/inference/llama/llama-client-options.js";
import { LlamaInferenceClient } from "../../src/inference/llama/llama-inference-client.js";
import { SMOLLM2_PATH, realModelAvailable } from "./real-model.js";

/** A `real` test's client of SmolLM2: LlamaInferenceClient's options, less the model file. */
export type RealModelClientOptions = Omit<LlamaInferenceClientOptions, "modelPath">;

/**
 * Opens a client of SmolLM2 before the calling `describe`'s tests (when the model is here) and disposes of it after
 * them; call it in the `describe`'s body. Returns the client's getter, for tests that skip without the model.
 */
export function useRealModelClient(options: RealModelClientOptions): () => LlamaInferenceClient {
  let client: LlamaInferenceClient | undefined;

  beforeAll(async () => {
    // One thread unless a test asks for more: these files' time budgets were measured on one thread, and the real
    // project runs beside other work on a two-core machine (the engine's default would take every core).
    if (realModelAvailable) client = await LlamaInferenceClient.create({ modelPath: SMOLLM2_PATH, threads: 1, ...options });
  });

  afterAll(async () => {
    await client?.dispose();
  });

  return () => {
    if (client === undefined) throw new Error("useRealModelClient: no client yet; read it inside a test that skips without SmolLM2 (realModelAvailable)");
    return client;
  };
}
