import { describe, expect, it } from "vitest";
import { Arena } from "../../../src/arena/arena.js";
import { ArtifactStore } from "../../../src/arena/artifact-store.js";
import { gaussianSolveRateReward } from "../../../src/core/rewards/gaussian-solve-rate-reward.js";
import { parseArithmeticProblem } from "../../../src/tasks/arithmetic/arithmetic-problem.js";
import { firstInteger } from "../../../src/core/answers/answer-extractors.js";
import { ProposerEpisode } from "../../../src/tasks/proposer-solver/proposer-episode.js";
import { SolverEpisode } from "../../../src/tasks/proposer-solver/solver-episode.js";
import { ScriptedInferenceClient } from "../../../src/inference/scripted-inference-client.js";
import type { GenerationRequest } from "../../../src/core/inference-client.js";
import { problemsOfSplit } from "../../../src/tasks/arithmetic/arithmetic-task.js";
import { JSON_PROPOSAL_GRAMMAR } from "../../../src/tasks/proposer-solver/json-proposal.js";

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

describe("ProposerEpisode and SolverEpisode in a chat model's forms", () => {
  const system = (request: GenerationRequest) => request.messages[0]?.content ?? "";
  const arenaWith = (proposerReply: string, solverReplies: string[], options: { dropHeldOut?: boolean } = {}) => {
    let solverCall = 0;
    const client = new ScriptedInferenceClient({
      capabilities: { grammars: true },
      rules: [
        { when: (request) => system(request).startsWith("You write arithmetic"), reply: proposerReply },
        { when: (request) => system(request).startsWith("Answer"), reply: () => solverReplies[solverCall++ % solverReplies.length] as string },
      ],
    });
    const arena = new Arena({ client, seed: 2 })
      .register(new ProposerEpisode({ solvers: 3, proposal: "json", maxTokens: 40, ...options }), ArtifactStore.of([{ topic: "two-digit addition" }]))
      .register(new SolverEpisode({ prompt: "words", system: "Answer with a number.", maxTokens: 20, extractor: "tolerant" }));
    return { arena, client };
  };

  it("proposes under the JSON grammar, executes the expression and asks the solvers in words, read by the tolerant extractor", async () => {
    const { arena, client } = arenaWith('{"problem": "(2 + 3) * 4"}', ["(2 + 3) * 4 = 20", "Answer: 20.0", "It is 21."]);
    const [result] = await arena.generateRollouts([{ episodeType: "propose", artifact: { topic: "two-digit addition" } }]);
    const [proposal, ...solves] = client.requests;
    expect(proposal?.constraint).toEqual(JSON_PROPOSAL_GRAMMAR);
    expect(proposal?.sampler.maxTokens).toBe(40);
    expect(solves.map((request) => [request.messages, request.constraint, request.sampler.maxTokens])).toEqual(
      Array.from({ length: 3 }, () => [[{ role: "system", content: "Answer with a number." }, { role: "user", content: "What is (2 + 3) * 4?" }], null, 20]),
    );
    expect(result?.rollout.artifacts).toEqual({ topic: "two-digit addition", valid: true, problem: "(2+3)*4", answer: 20 });
    // Numbers compare as numbers: `20.0` is 20.
    expect(result?.children.map((child) => [child.rollout.artifacts.answer, child.rewards.solver])).toEqual([["20", 1], ["20.0", 1], ["21", 0]]);
    expect(result?.rewards.proposer).toBeCloseTo(gaussianSolveRateReward(2 / 3, { target: 0.5, sigma: 0.2 }), 12);
  });

  it("counts a proposal cut short, or one the executor refuses, as no problem", async () => {
    for (const reply of ['{"problem": "12+', '{"problem": "999*999*999*999"}']) {
      const { arena } = arenaWith(reply, ["1"]);
      const [result] = await arena.generateRollouts([{ episodeType: "propose", artifact: { topic: "two-digit addition" } }]);
      expect(result?.children).toEqual([]);
      expect(result?.rewards).toEqual({ proposer: -1 });
    }
  });

  it("drops a proposal of the held-out split before any solver sees it, when told to", async () => {
    const heldOut = problemsOfSplit("held-out")[0]!.text;
    const { arena, client } = arenaWith(`{"problem": "${heldOut}"}`, ["1"], { dropHeldOut: true });
    const [result] = await arena.generateRollouts([{ episodeType: "propose", artifact: { topic: "two-digit addition" } }]);
    expect(result?.outcome).toMatchObject({ status: "dropped", reason: { name: "HeldOutProblemError" } });
    expect(client.requests).toHaveLength(1);
    // A training problem, and the same held-out one without the option, go to the solvers.
    const training = problemsOfSplit("train")[0]!.text;
    for (const [problem, options] of [[training, { dropHeldOut: true }], [heldOut, {}]] as const) {
      const played = arenaWith(`{"problem": "${problem}"}`, ["1"], options);
      const [kept] = await played.arena.generateRollouts([{ episodeType: "propose", artifact: { topic: "two-digit addition" } }]);
      expect(kept?.outcome.status).toBe("scored");
      expect(kept?.children).toHaveLength(3);
    }
  });
});
