import { describe, expect, it } from "vitest";
import { groupByPrompt } from "../../../src/training/ggml/group-by-prompt.js";

describe("groupByPrompt", () => {
  it("puts items of one prompt side by side: groups in order of their first item, items in their own order", () => {
    expect(groupByPrompt([[1, 2], [3], [1, 2], Int32Array.from([3]), [1], [1, 2]])).toEqual([0, 2, 5, 1, 3, 4]);
    expect(groupByPrompt([])).toEqual([]);
  });
});
