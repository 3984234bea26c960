import { describe, expect, it } from "vitest";
import { informativeGroups } from "../../../src/training/loop/informative-groups.js";
import { scriptedStepResults } from "../tfjs/scripted-step-results.js";

const everyRole = () => true;

describe("informativeGroups", () => {
  it("splits sub-episode groups by whether their rewards differ, and leaves ungrouped rollouts (the proposers) out", async () => {
    const results = await scriptedStepResults([
      { cluster: "add-2x2-no-carry", problem: "23+45", solvers: ["68", "68", "67", "0"] },
      { cluster: "add-1x1-no-carry", problem: "3+4", solvers: ["7", "7", "7", "7"] },
      { cluster: "add-1x1-carry", problem: "nothing" },
      { cluster: "add-2x2-no-carry", problem: "30+40", solvers: ["1", "2", "3", "4"] },
    ]);
    // Each valid proposal's four solvers share a group id: its own rollout id's.
    const solverGroups = results.filter((result) => result.children.length > 0).map((result) => result.children[0]?.rollout.groupId);
    expect(solverGroups).toHaveLength(3);
    expect(informativeGroups(results, everyRole)).toEqual({ informative: [solverGroups[0]], uninformative: [solverGroups[1], solverGroups[2]] });
  });

  it("counts only the roles that are trained", async () => {
    const results = await scriptedStepResults([{ cluster: "add-2x2-no-carry", problem: "23+45", solvers: ["68", "68", "67", "0"] }]);
    expect(informativeGroups(results, (_, roleId) => roleId !== "solver")).toEqual({ informative: [], uninformative: [] });
  });
});
