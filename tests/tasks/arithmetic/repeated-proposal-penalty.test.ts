import { describe, expect, it } from "vitest";
import { penaliseRepeatedProposals } from "../../../src/tasks/arithmetic/repeated-proposal-penalty.js";
import { scriptedStepResults } from "../../training/tfjs/scripted-step-results.js";

const right = ["68", "68", "0", "0"] as const;

describe("penaliseRepeatedProposals", () => {
  it("takes weight × (n − 1) / n off each of n copies of a valid problem in the draw, and leaves single and invalid proposals as scored", async () => {
    const results = await scriptedStepResults([
      { cluster: "add-2x2-no-carry", problem: "23+45", solvers: right },
      { cluster: "add-2x2-no-carry", problem: "23+45", solvers: right },
      { cluster: "add-2x2-no-carry", problem: "23+45", solvers: right },
      { cluster: "add-2x2-no-carry", problem: "12+13", solvers: ["25", "0", "0", "0"] },
      { cluster: "add-2x2-no-carry", problem: "no problem" },
      { cluster: "add-2x2-no-carry", problem: "no problem" },
    ]);
    const penalised = penaliseRepeatedProposals(results, 0.6);
    const before = results.map((result) => result.rewards.proposer as number);
    const after = penalised.map((result) => result.rewards.proposer as number);
    for (const index of [0, 1, 2]) {
      expect(after[index]).toBeCloseTo((before[index] as number) - (0.6 * 2) / 3, 12);
      expect(penalised[index]!.scoreDetails).toMatchObject({ copiesInDraw: 3, repetitionPenalty: expect.closeTo(0.4, 12) as number });
    }
    expect(after.slice(3)).toEqual(before.slice(3));
    expect(after.slice(4)).toEqual([-1, -1]);
    // The solvers' rewards and the input are untouched.
    expect(penalised[0]!.children).toBe(results[0]!.children);
    expect(results[0]!.rewards.proposer).toBe(before[0]);
    expect(penaliseRepeatedProposals(results, 0).map((result) => result.rewards)).toEqual(results.map((result) => result.rewards));
  });
});
