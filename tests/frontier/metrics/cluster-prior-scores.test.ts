import { describe, expect, it } from "vitest";
import { clusterPriorScores } from "../../../src/frontier/metrics/cluster-prior-scores.js";

describe("clusterPriorScores", () => {
  it("predicts each example's cluster's mean training label, and the overall mean for an unseen cluster", () => {
    const training = [
      { cluster: "add-1x1-no-carry", label: 1 },
      { cluster: "add-1x1-no-carry", label: 0.5 },
      { cluster: "add-2x2-carry", label: 0 },
    ];
    expect(clusterPriorScores(training, [{ cluster: "add-2x2-carry" }, { cluster: "add-1x1-no-carry" }, { cluster: "subtract-2x2-borrow" }])).toEqual([0, 0.75, 0.5]);
    expect(clusterPriorScores([{ cluster: "a", label: 0.2 }], [{ cluster: "b" }])).toEqual([0.2]);
    expect(clusterPriorScores([], [{ cluster: "a" }])).toEqual([0.5]);
  });
});
