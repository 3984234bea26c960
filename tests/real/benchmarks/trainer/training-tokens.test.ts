import type { Token } from "node-llama-cpp";
import { describe, expect, it } from "vitest";
import { bytesToTokenIds } from "../../../../src/inference/byte-tokens.js";
import { loadLlama } from "../../../../src/inference/llama/load-llama.js";
import { trainingText } from "../../../../src/benchmarks/trainer/training-text.js";
import { trainingTokens } from "../../../../src/benchmarks/trainer/training-tokens.js";
import { REAL_MODEL_SKIP_REASON, SMOLLM2_PATH, realModelAvailable } from "../../real-model.js";

describe.skipIf(!realModelAvailable)(`bench trainer's tokens on SmolLM2${REAL_MODEL_SKIP_REASON}`, () => {
  it("are the model's own tokenization of the training text: enough of them, detokenizing to the text, not its bytes", async () => {
    const count = 1_537;
    const tokens = await trainingTokens(SMOLLM2_PATH, count);
    expect(tokens.length).toBeGreaterThanOrEqual(count);
    const vocabulary = await (await loadLlama("auto")).loadModel({ modelPath: SMOLLM2_PATH, vocabOnly: true });
    try {
      const text = vocabulary.detokenize(Array.from(tokens) as unknown as Token[]);
      expect(text).toBe(trainingText(text.length).slice(0, text.length));
      // The same text again through the tokenizer: the very ids (no BOS, nothing added), and not the byte ids.
      expect(Array.from(vocabulary.tokenize(text))).toEqual(Array.from(tokens));
      expect(Array.from(tokens)).not.toEqual(Array.from(bytesToTokenIds(text)));
    } finally {
      await vocabulary.dispose();
    }
  });
});
