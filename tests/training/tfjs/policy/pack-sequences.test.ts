import { describe, expect, it } from "vitest";
import { packSequences } from "../../../../src/training/tfjs/policy/pack-sequences.js";
import { planBatches } from "../../../../src/training/tfjs/policy/plan-batches.js";

describe("packSequences", () => {
  it("right-pads rows, leaves each completion's last token unread, and points every target at the output that predicts it", () => {
    const packed = packSequences(
      [
        { promptTokenIds: [1, 10], completionTokenIds: [11, 12, 13], temperature: 0.7 },
        { promptTokenIds: [1], completionTokenIds: [20], temperature: 1 },
      ],
      259,
    );
    expect(packed).toMatchObject({ batchSize: 2, length: 4, completionLengths: [3, 1] });
    expect(Array.from(packed.tokenIds)).toEqual([1, 10, 11, 12, 1, 0, 0, 0]);
    expect(Array.from(packed.predictingRows)).toEqual([1, 2, 3, 4]);
    expect(Array.from(packed.targetTokenIds)).toEqual([11, 12, 13, 20]);
    expect(Array.from(packed.temperatures)).toEqual([Math.fround(0.7), Math.fround(0.7), Math.fround(0.7), 1]);
  });
});

describe("planBatches", () => {
  const sequence = (length: number) => ({ promptTokenIds: Array.from({ length }, () => 1), completionTokenIds: [2], temperature: 1 });

  it("groups longest first within the padded-token budget, and gives an over-long sequence a pass of its own", () => {
    const sequences = [sequence(10), sequence(50), sequence(30), sequence(200), sequence(25)];
    expect(planBatches(sequences, 100)).toEqual([[3], [1, 2], [4, 0]]);
    expect(planBatches(sequences, 10_000)).toEqual([[3, 1, 2, 4, 0]]);
  });
});
