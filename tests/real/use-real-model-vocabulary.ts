import type { LlamaModel } from "node-llama-cpp";
import { afterAll, beforeAll } from "vitest";
import { loadLlama } from "../../src/inference/llama/load-llama.js";
import { SMOLLM2_PATH, realModelAvailable } from "./real-model.js";

/**
 * Loads SmolLM2's vocabulary (the file's tokenizer and metadata, no weights) on the CPU build before the calling
 * `describe`'s tests (when the model is here) and disposes of it after them; call it in the `describe`'s body. Returns
 * the model's getter, for tests that skip without the model.
 */
export function useRealModelVocabulary(): () => LlamaModel {
  let vocabulary: LlamaModel | undefined;

  beforeAll(async () => {
    if (realModelAvailable) vocabulary = await (await loadLlama("cpu")).loadModel({ modelPath: SMOLLM2_PATH, vocabOnly: true });
  });

  afterAll(async () => {
    await vocabulary?.dispose();
  });

  return () => {
    if (vocabulary === undefined) throw new Error("useRealModelVocabulary: no vocabulary yet; read it inside a test that skips without SmolLM2 (realModelAvailable)");
    return vocabulary;
  };
}
