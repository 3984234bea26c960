import { describe, expect, it } from "vitest";
import { arithmeticClusterOutcomes } from "../../../src/tasks/arithmetic/arithmetic-cluster-outcomes.js";
import { scriptedStepResults } from "../../training/tfjs/scripted-step-results.js";

describe("arithmeticClusterOutcomes", () => {
  it("gives each cluster of a step its first-attempt and success rates (hand-computed)", async () => {
    const results = await scriptedStepResults([
      { cluster: "add-2x2-no-carry", problem: "23+45", solvers: ["68", "68", "67", "0"] },
      { cluster: "add-1x1-no-carry", problem: "3+4", solvers: ["7", "7", "7", "7"] },
      { cluster: "add-2x2-no-carry", problem: "30+40", solvers: ["1", "2", "3", "4"] },
      // Asked for a carry, wrote no problem: no solvers, no outcome.
      { cluster: "add-1x1-carry", problem: "nothing" },
      { cluster: "add-2x2-no-carry", problem: "52+13", solvers: ["65", "0", "0", "0"] },
    ]);
    expect(results.map((result) => result.rollout.artifacts.verdict)).toEqual(["valid", "valid", "valid", "unparsable", "valid"]);
    expect(arithmeticClusterOutcomes(results)).toEqual([
      { cluster: "add-1x1-no-carry", firstAttemptRate: 1, successRate: 1, trajectories: 4, latestTask: "3+4=" },
      // Pass rates 2/4, 0/4, 1/4: mean 0.25; two of three problems solved by some attempt.
      { cluster: "add-2x2-no-carry", firstAttemptRate: 0.25, successRate: 2 / 3, trajectories: 12, latestTask: "52+13=" },
    ]);
  });
});
