import { describe, expect, it } from "vitest";
import { packGgmlChunks } from "../../../src/training/ggml/pack-ggml-chunks.js";

const sequence = (promptTokenIds: number[], completionTokenIds: number[]) => ({ promptTokenIds, completionTokenIds, temperature: 1 });

describe("packGgmlChunks", () => {
  it("packs a prompt once for the consecutive completions that share it; each continues it, targets in input order", () => {
    const plans = packGgmlChunks([sequence([1, 2, 3], [4, 5]), sequence([1, 2, 3], [6]), sequence([1, 2, 3], [7, 8, 9]), sequence([10], [11, 12])], 259, 128);
    expect(plans).toHaveLength(1);
    const { chunk, members } = plans[0]!;
    expect(members).toEqual([0, 1, 2, 3]);
    expect([...chunk.tokens]).toEqual([1, 2, 3, 4, 7, 8, 10, 11]);
    // The prompt, the first completion (the one-token one adds no row), the third, then a sequence of its own.
    expect([...chunk.sequenceLengths]).toEqual([3, 1, 2, 2]);
    expect([...chunk.sequenceParents!]).toEqual([-1, 0, 0, -1]);
    // Every completion's first token is scored by the prompt's last row.
    expect([...chunk.targetRows]).toEqual([2, 3, 2, 2, 4, 5, 6, 7]);
    expect([...chunk.targetTokens]).toEqual([4, 5, 6, 7, 8, 9, 11, 12]);
  });

  it("counts a shared prompt once against the row's budget, and packs it again in the next row", () => {
    // 3 + 1, then +1 and +2 for the completions sharing it: 7 tokens; a limit of 6 starts a second row with the prompt.
    const sequences = [sequence([1, 2, 3], [4, 5]), sequence([1, 2, 3], [6, 7]), sequence([1, 2, 3], [8, 9, 10])];
    expect(packGgmlChunks(sequences, 259, 7).map((plan) => plan.members)).toEqual([[0, 1, 2]]);
    const split = packGgmlChunks(sequences, 259, 6);
    expect(split.map((plan) => plan.members)).toEqual([[0, 1], [2]]);
    expect([...split[1]!.chunk.tokens]).toEqual([1, 2, 3, 8, 9]);
    expect(split[1]!.chunk.sequenceParents).toBeUndefined();
  });

  it("keeps rows without a shared prompt as before: one sequence each, no parents", () => {
    const [plan] = packGgmlChunks([sequence([1, 2], [3, 4]), sequence([5], [6])], 259, 128);
    expect([...plan!.chunk.tokens]).toEqual([1, 2, 3, 5]);
    expect([...plan!.chunk.sequenceLengths]).toEqual([3, 1]);
    expect(plan!.chunk.sequenceParents).toBeUndefined();
    expect([...plan!.chunk.targetRows]).toEqual([1, 2, 3]);
  });
});
