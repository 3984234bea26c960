import { describe, expect, it } from "vitest";
import { createChallengeSandbox } from "../../../src/dream/challenges/create-challenge-sandbox.js";
import { DreamWorkspace } from "../../../src/dream/cycle/dream-workspace.js";
import { runDreamCycle } from "../../../src/dream/cycle/run-dream-cycle.js";
import { clientDreamSolver } from "../../../src/dream/solver/dream-solver.js";
import { RIGHT_SOLUTION, scriptedClient, steppingClock, sumTemplate, temporaryFolder } from "./cycle-helpers.js";

describe("a dream cycle with a PRM", () => {
  it("picks through the PRM-weighted frontier once trajectories exist, and counts the cycle's states", async () => {
    const now = steppingClock();
    const workspace = await DreamWorkspace.open(temporaryFolder(), { seed: 9, now, frontierSettings: { uniformSampleProbability: 0 } });
    const client = scriptedClient([{ when: () => true, reply: RIGHT_SOLUTION }]);
    const scored: string[] = [];
    const prm = { score: async (states: readonly { cluster: string }[]) => (states.forEach((state) => scored.push(state.cluster)), states.map(() => 0.5)) };
    const options = { workspace, client, solver: clientDreamSolver(client), sandbox: createChallengeSandbox(), templates: [sumTemplate(), sumTemplate("data-analysis/sum-again")], seed: 9, now, prm };
    const cold = await runDreamCycle(options);
    expect(cold.frontier.fallback).toBe("cold-start");
    expect(workspace.trajectoryCounts).toEqual({ "data-analysis": 2 });
    const warm = await runDreamCycle(options);
    expect(warm.frontier.reason).toBe("prm-weighted");
    expect(warm.frontier.message).toMatch(/^FRONTIER TARGET \(PRM-weighted\)/);
    expect(scored).toEqual(["data-analysis"]);
    await workspace.close();
  });
});
