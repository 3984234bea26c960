import { describe, expect, it } from "vitest";
import { trainingRow, trainingSequence } from "../../../src/benchmarks/trainer/measure-ggml-training.js";
import { trainingText } from "../../../src/benchmarks/trainer/training-text.js";
import { bytesToTokenIds } from "../../../src/inference/byte-tokens.js";
import { BYTE_VOCABULARY_SIZE } from "../../../src/inference/model-files/byte-vocabulary.js";
import { packGgmlChunks } from "../../../src/training/ggml/pack-ggml-chunks.js";

describe("the bench's training windows", () => {
  const sequenceLength = 16;
  // Three whole windows and a part of a fourth: window 3 wraps to window 0.
  const tokens = bytesToTokenIds(trainingText(3 * sequenceLength + 9)).subarray(0, 3 * sequenceLength + 9);

  it("give the engine exactly the row the trainer's forward pass reads for a window", () => {
    for (const index of [0, 1, 2, 3]) {
      const [plan, ...rest] = packGgmlChunks([trainingSequence(tokens, index, sequenceLength)], BYTE_VOCABULARY_SIZE, 128);
      expect(rest).toHaveLength(0);
      expect(Array.from(plan?.chunk.tokens ?? [])).toEqual(Array.from(trainingRow(tokens, index, sequenceLength)));
      expect(plan?.chunk.targetTokens).toHaveLength(sequenceLength);
    }
  });

  it("follow one another through the text and repeat after the last whole window", () => {
    const row = (index: number) => Array.from(trainingRow(tokens, index, sequenceLength));
    expect([0, 1, 2].map(row)).toEqual([0, 16, 32].map((start) => Array.from(tokens.subarray(start, start + sequenceLength))));
    expect(row(3)).toEqual(row(0));
    expect(Array.from(trainingSequence(tokens, 1, sequenceLength).completionTokenIds)).toEqual(Array.from(tokens.subarray(17, 33)));
  });
});
