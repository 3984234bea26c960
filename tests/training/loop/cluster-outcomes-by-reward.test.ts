import { describe, expect, it } from "vitest";
import type { PrmScorer } from "../../../src/frontier/prm/prm-scorer.js";
import { createProposerSolverEnvironment } from "../../../src/tasks/proposer-solver/proposer-solver-environment.js";
import { Arena } from "../../../src/arena/arena.js";
import { ScriptedInferenceClient } from "../../../src/inference/scripted-inference-client.js";
import { clusterOutcomesByReward } from "../../../src/training/loop/cluster-outcomes-by-reward.js";
import { FrontierRequests } from "../../../src/training/loop/frontier-requests.js";
import { failedResult, makeRollout, makeStep, scoredResult } from "../../helpers/make-step.js";

const environment = createProposerSolverEnvironment({ prompts: 6, groupSize: 4 });
const clusters = environment.clusters!;
const attempt = (topic: string, reward: number, id: string) =>
  scoredResult(makeRollout({ id, episodeType: "propose", artifact: { topic }, steps: [makeStep("proposer", "7+5", { prompt: [{ role: "user", content: `Write one ${topic} problem.` }] })] }), { proposer: reward });

describe("clusterOutcomesByReward (the frontier's default for environments without their own outcomes)", () => {
  it("counts each scored rollout of the clustered type as one attempt, solved when its mean reward is positive (hand-computed)", () => {
    const outcomes = clusterOutcomesByReward(
      [
        attempt("two-digit addition", 0.8, "ep0"),
        attempt("two-digit addition", -1, "ep1"),
        attempt("one-digit subtraction", 0.1, "ep2"),
        failedResult(makeRollout({ id: "ep3", episodeType: "propose", artifact: { topic: "one-digit subtraction" } })),
        scoredResult(makeRollout({ id: "ep4", episodeType: "solve", artifact: { topic: "two-digit addition" } }), { solver: 1 }),
      ],
      clusters,
    );
    expect(outcomes).toEqual([
      { cluster: "one-digit subtraction", firstAttemptRate: 1, successRate: 1, trajectories: 1, latestTask: "Write one one-digit subtraction problem." },
      { cluster: "two-digit addition", firstAttemptRate: 0.5, successRate: 0.5, trajectories: 2, latestTask: "Write one two-digit addition problem." },
    ]);
  });

  it("lets the frontier draw each chosen topic's artifact and group its proposals", async () => {
    const prm: PrmScorer = { score: async (states) => states.map(() => 0.5) };
    const arena = new Arena({ client: new ScriptedInferenceClient({ rules: [] }), seed: 1 });
    const requests = new FrontierRequests({ environment, arena, scorer: prm, seed: 2, settings: { uniformSampleProbability: 0 } });
    const choice = await requests.choose();
    expect(choice.requests).toHaveLength(6 * 4);
    for (let prompt = 0; prompt < 6; prompt++) {
      const group = choice.requests.slice(prompt * 4, prompt * 4 + 4);
      expect(new Set(group.map((request) => request.groupId)).size).toBe(1);
      expect(new Set(group.map((request) => JSON.stringify(request.artifact))).size).toBe(1);
      expect(clusters.names).toContain(clusters.of(group[0]!.artifact!));
    }
    expect(Object.values(choice.targets).reduce((sum, count) => sum + count, 0)).toBe(6);
  });
});
