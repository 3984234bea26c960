import { describe, expect, it } from "vitest";
import { Arena } from "../../../src/arena/arena.js";
import { ArtifactStore } from "../../../src/arena/artifact-store.js";
import { gaussianSolveRateReward } from "../../../src/core/rewards/gaussian-solve-rate-reward.js";
import { parseArithmeticProblem } from "../../../src/tasks/arithmetic/arithmetic-problem.js";
import { firstInteger } from "../../../src/core/answers/answer-extractors.js";
import { ProposerEpisode } from "../../../src/tasks/proposer-solver/proposer-episode.js";
import { SolverEpisode } from "../../../src/tasks/proposer-solver/solver-episode.js";
import { ScriptedInferenceClient } from "../../../src/inference/scripted-inference-client.js";

describe("arithmetic problems", () => {
  it("parses a+b and a−b and rejects anything else", () => {
    expect(parseArithmeticProblem(" 23 + 45\nmore")).toEqual({ text: "23+45", answer: 68 });
    expect(parseArithmeticProblem("3-17")).toEqual({ text: "3-17", answer: -14 });
    expect(parseArithmeticProblem("2*3")).toBeUndefined();
    expect(parseArithmeticProblem("what is 2+3?")).toBeUndefined();
  });

  it("extracts the first integer of an answer", () => {
    expect(firstInteger("The answer is -14.")).toBe("-14");
    expect(firstInteger("007")).toBe("7");
    expect(firstInteger("none")).toBeUndefined();
  });
});

describe("ProposerEpisode (hierarchical)", () => {
  const arenaWith = (proposerReply: string, solverReplies: string[]) => {
    let solverCall = 0;
    const client = new ScriptedInferenceClient({
      rules: [
        { when: /^system: You write arithmetic/, reply: proposerReply },
        { when: /^system: Solve/, reply: () => solverReplies[solverCall++ % solverReplies.length] as string },
      ],
    });
    return new Arena({ client, seed: 2 })
      .register(new ProposerEpisode({ solvers: 4 }), ArtifactStore.of([{ topic: "two-digit addition" }]))
      .register(new SolverEpisode());
  };

  it("spawns N solver sub-episodes as children and rewards the proposer from their pass rate", async () => {
    const arena = arenaWith("12+30", ["42", "41", "42", "x"]);
    const [result] = await arena.generateRollouts(arena.getBatch([{ episodeType: "propose", count: 1 }]));
    expect(result?.children.map((child) => [child.rollout.id, child.rollout.groupId, child.rewards])).toEqual([
      ["ep0.0", "ep0/solve", { solver: 1 }],
      ["ep0.1", "ep0/solve", { solver: 0 }],
      ["ep0.2", "ep0/solve", { solver: 1 }],
      ["ep0.3", "ep0/solve", { solver: 0 }],
    ]);
    expect(result?.scoreDetails).toMatchObject({ passRate: 0.5, passes: 2 });
    expect(result?.rewards).toEqual({ proposer: 1 });

    const credit = arena.assignCredit([result!]);
    expect(credit.map((assignment) => assignment.roleId)).toEqual(["proposer", "solver", "solver", "solver", "solver"]);
    const batch = arena.buildTrainingBatch([result!], credit, 0);
    expect(batch.records).toHaveLength(5);
  });

  it("aims at a 50% pass rate: all solved earns the Gaussian's tail", async () => {
    const arena = arenaWith("1+1", ["2"]);
    const [result] = await arena.generateRollouts([{ episodeType: "propose", artifact: { topic: "one-digit addition" } }]);
    expect(result?.rewards["proposer"]).toBeCloseTo(gaussianSolveRateReward(1, { target: 0.5, sigma: 0.2 }), 12);
  });

  it("gives a malformed problem the invalid reward and spawns no solver", async () => {
    const arena = arenaWith("a word problem", ["2"]);
    const [result] = await arena.generateRollouts([{ episodeType: "propose", artifact: { topic: "one-digit addition" } }]);
    expect(result?.children).toEqual([]);
    expect(result?.rewards).toEqual({ proposer: -1 });
  });
});
