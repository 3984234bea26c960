import type { InferenceClient } from "../core/inference-client.js";
import { InvalidInputError } from "../core/errors/index.js";
import { LlamaInferenceClient } from "../inference/llama/llama-inference-client.js";
import type { LlamaInferenceClientOptions } from "../inference/llama/llama-client-options.js";
import { OpenAICompatibleClient } from "../inference/server/openai-compatible-client.js";
import type { OpenAICompatibleClientOptions } from "../inference/server/server-client-options.js";

/**
 * A command's policy client: the in-process engine, or with `--client openai`
 * the servers (which serve the model they were started with; `modelPath` is
 * then the tokenizer's file, and an adapter is theirs to load, not ours).
 */
export async function openCommandClient(llama: LlamaInferenceClientOptions, server: Omit<OpenAICompatibleClientOptions, "modelPath"> | undefined): Promise<InferenceClient> {
  if (server === undefined) return LlamaInferenceClient.create(llama);
  if (llama.loraPath !== undefined) {
    throw new InvalidInputError("--lora", "no --lora with --client openai (start the servers with the adapter: llama-server --lora FILE, vLLM --lora-modules)", llama.loraPath);
  }
  return OpenAICompatibleClient.create({ ...server, modelPath: llama.modelPath });
}
