import { describe, expect, it } from "vitest";
import { planLengthBuckets } from "../../../../src/training/tfjs/policy/plan-length-buckets.js";

describe("planLengthBuckets", () => {
  it("keeps sequences of similar length in one pass", () => {
    expect(planLengthBuckets([25, 26, 24, 27])).toEqual([[0, 1, 2, 3]]);
    expect(planLengthBuckets([])).toEqual([]);
  });

  it("splits short answers from long prompts when the padding saved outweighs a pass's overhead", () => {
    const lengths = [...Array.from({ length: 56 }, () => 26), ...Array.from({ length: 8 }, () => 52)];
    // One pass pads 64 rows to 52 (3,328 tokens); two cost 56·26 + 8·52 + 2·256 = 2,384.
    expect(planLengthBuckets(lengths, 3, 256)).toEqual([lengths.map((_, index) => index).slice(0, 56), lengths.map((_, index) => index).slice(56)]);
    expect(planLengthBuckets(lengths, 1, 256)).toHaveLength(1);
    // With a huge per-pass overhead, one pass is cheaper.
    expect(planLengthBuckets(lengths, 3, 10_000)).toHaveLength(1);
  });

  it("returns every index once, each group in index order, shortest group first", () => {
    const lengths = [100, 3, 50, 4, 98, 49, 2, 101];
    const buckets = planLengthBuckets(lengths, 3, 0);
    expect(buckets.flat().sort((a, b) => a - b)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    expect(buckets).toEqual([[1, 3, 6], [2, 5], [0, 4, 7]]);
  });
});
