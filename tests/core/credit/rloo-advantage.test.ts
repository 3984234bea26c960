import { describe, expect, it } from "vitest";
import { RlooAdvantage } from "../../../src/core/credit/rloo-advantage.js";
import { creditSample } from "../../helpers/credit-sample.js";
import { expectAllClose } from "../../helpers/expect-close.js";

describe("RlooAdvantage", () => {
  it("is named rloo", () => {
    expect(new RlooAdvantage().name).toBe("rloo");
  });

  it("subtracts the mean of the other members", () => {
    // [1, 0, 0, 1]: a 1 sees others [0, 0, 1] mean 1/3; a 0 sees [1, 0, 1] mean 2/3.
    const samples = [1, 0, 0, 1].map((reward) => creditSample("g", "solver", reward));
    expectAllClose(new RlooAdvantage().assign(samples), [2 / 3, -2 / 3, -2 / 3, 2 / 3]);
  });

  it("matches a hand-computed uneven group", () => {
    // [3, 1, 2]: 3 − (1+2)/2 = 1.5; 1 − (3+2)/2 = −1.5; 2 − (3+1)/2 = 0.
    const samples = [3, 1, 2].map((reward) => creditSample("g", "solver", reward));
    expect(new RlooAdvantage().assign(samples)).toEqual([1.5, -1.5, 0]);
  });

  it("gives a pair r_i − r_j", () => {
    const samples = [creditSample("g", "solver", 0.75), creditSample("g", "solver", 0.25)];
    expect(new RlooAdvantage().assign(samples)).toEqual([0.5, -0.5]);
  });

  it("gives a group of one advantage 0", () => {
    expect(new RlooAdvantage().assign([creditSample("g", "proposer", 5)])).toEqual([0]);
  });

  it("returns an empty array for no samples", () => {
    expect(new RlooAdvantage().assign([])).toEqual([]);
  });

  it("groups by (groupId, roleId), keeping sample order", () => {
    const samples = [
      creditSample("q1", "solver", 1), // q1/solver [1, 0, 1]: 1 − 1/2 = 0.5; 0 − 2/2 = −1
      creditSample("q1", "judge", 4), // q1/judge alone → 0
      creditSample("q2", "solver", 1), // q2/solver [1, 3]: −2, 2
      creditSample("q1", "solver", 0),
      creditSample("q2", "solver", 3),
      creditSample("q1", "solver", 1),
    ];
    expect(new RlooAdvantage().assign(samples)).toEqual([0.5, 0, -2, -1, 2, 0.5]);
  });
});
