import { describe, expect, it } from "vitest";
import { Arena } from "../../../src/arena/arena.js";
import { gaussianSolveRateReward } from "../../../src/core/rewards/gaussian-solve-rate-reward.js";
import { ArithmeticProposerEpisode } from "../../../src/tasks/arithmetic/arithmetic-proposer-episode.js";
import { ArithmeticSolverEpisode } from "../../../src/tasks/arithmetic/arithmetic-solver-episode.js";
import { problemsOfSplit } from "../../../src/tasks/arithmetic/arithmetic-task.js";
import { ScriptedInferenceClient } from "../../../src/inference/scripted-inference-client.js";

const heldOut = problemsOfSplit("held-out").find((problem) => problem.cluster === "add-2x2-no-carry")!;

/** A proposer that writes `problems[cluster]`; solvers right on even seeds' first two attempts only. */
function arena(problems: Record<string, string>) {
  let solverCalls = 0;
  const client = new ScriptedInferenceClient({
    rules: [
      { when: /user: propose (\S+)/, reply: (request) => problems[/propose (\S+)/.exec(request.messages[0]!.content)![1]!] ?? "" },
      // Two of every four attempts answer right.
      { when: /user: 23\+45=/, reply: () => (solverCalls++ % 4 < 2 ? "68" : "67") },
    ],
  });
  return new Arena({ client, seed: 3 }).register(new ArithmeticProposerEpisode()).register(new ArithmeticSolverEpisode());
}

describe("arithmetic self-play", () => {
  it("pays the proposer by the Gaussian of the solvers' pass rate and the solvers by exact match", async () => {
    const [result] = await arena({ "add-2x2-no-carry": "23+45" }).generateRollouts([{ episodeType: "arithmetic-propose", artifact: { cluster: "add-2x2-no-carry" } }]);
    expect(result!.outcome.status).toBe("scored");
    expect(result!.rollout.artifacts).toMatchObject({ verdict: "valid", problem: "23+45", answer: 68, cluster: "add-2x2-no-carry" });
    expect(result!.children.map((child) => child.rewards.solver)).toEqual([1, 1, 0, 0]);
    expect(result!.rewards.proposer).toBeCloseTo(gaussianSolveRateReward(0.5, { target: 0.5, sigma: 0.2 }), 10);
    // The solver reads the short prompt the pretraining corpus taught.
    expect(result!.children[0]!.rollout.steps[0]!.prompt).toEqual([{ role: "user", content: "23+45=" }]);
  });

  it.each([
    ["unparsable", "twenty"],
    ["wrong-cluster", "3+4"],
  ])("gives −1 and runs no solvers for a %s problem", async (verdict, reply) => {
    const [result] = await arena({ "add-2x2-no-carry": reply }).generateRollouts([{ episodeType: "arithmetic-propose", artifact: { cluster: "add-2x2-no-carry" } }]);
    expect(result!.rollout.artifacts.verdict).toBe(verdict);
    expect(result!.rewards).toEqual({ proposer: -1 });
    expect(result!.children).toHaveLength(0);
  });

  it("drops a held-out problem: the rollout is dropped (no failure) with HeldOutProblemError as its reason, and nothing of it is trained on", async () => {
    const play = arena({ "add-2x2-no-carry": heldOut.text });
    const results = await play.generateRollouts([{ episodeType: "arithmetic-propose", artifact: { cluster: "add-2x2-no-carry" } }]);
    expect(results[0]!.outcome).toEqual({ status: "dropped", stage: "score", reason: { name: "HeldOutProblemError", message: `"${heldOut.text}" is a held-out problem; it is dropped from training` } });
    expect(results[0]!.children).toHaveLength(0);
    expect(play.buildTrainingBatch(results, play.assignCredit(results), 0).records).toHaveLength(0);
  });
});
