import { loadLlama } from "../../inference/llama/load-llama.js";
import { trainingText } from "./training-text.js";

/**
 * At least `count` tokens of `trainingText` in the model's own vocabulary: its
 * tokenizer, read from the file by node-llama-cpp, as the engine reads a
 * prompt. On the byte vocabulary of project-made models that is one token a
 * byte (`bytesToTokenIds`); on a real model's BPE vocabulary byte ids would be
 * other text, so the trainer and the engine's forward are fed these instead.
 */
export async function trainingTokens(modelPath: string, count: number): Promise<Int32Array> {
  const vocabulary = await (await loadLlama("auto")).loadModel({ modelPath, vocabOnly: true });
  try {
    // A BPE vocabulary writes fewer tokens than characters: more text until there are enough.
    for (let characters = count; ; characters *= 2) {
      const tokens = vocabulary.tokenize(trainingText(characters));
      if (tokens.length >= count) return Int32Array.from(tokens);
    }
  } finally {
    await vocabulary.dispose();
  }
}
