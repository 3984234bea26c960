import { describe, expect, it } from "vitest";
import { RewardBroadcast } from "../../../src/core/credit/reward-broadcast.js";
import { creditSample } from "../../helpers/credit-sample.js";

describe("RewardBroadcast", () => {
  it("is named reward-broadcast", () => {
    expect(new RewardBroadcast().name).toBe("reward-broadcast");
  });

  it("gives every sample its own reward, in order, ignoring groups", () => {
    const samples = [
      creditSample("g1", "solver", 1),
      creditSample("g1", "solver", 0),
      creditSample("g2", "proposer", -0.25),
      creditSample("g1", "solver", 3),
    ];
    expect(new RewardBroadcast().assign(samples)).toEqual([1, 0, -0.25, 3]);
  });

  it("returns an empty array for no samples", () => {
    expect(new RewardBroadcast().assign([])).toEqual([]);
  });

  it("keeps no state: a second batch is not affected by the first", () => {
    const assigner = new RewardBroadcast();
    assigner.assign([creditSample("g", "a", 10)]);
    expect(assigner.assign([creditSample("g", "a", 2)])).toEqual([2]);
    expect("snapshot" in assigner).toBe(false);
  });
});
