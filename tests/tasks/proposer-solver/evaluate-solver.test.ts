import { describe, expect, it } from "vitest";
import { Arena } from "../../../src/arena/arena.js";
import { loadEpisodeModule } from "../../../src/arena/pool/episode-module.js";
import type { GenerationRequest } from "../../../src/core/inference-client.js";
import { InvalidInputError } from "../../../src/core/errors/index.js";
import { ScriptedInferenceClient } from "../../../src/inference/scripted-inference-client.js";
import { heldOutExamples } from "../../../src/tasks/arithmetic/held-out-examples.js";
import { createProposerSolverEnvironment } from "../../../src/tasks/proposer-solver/proposer-solver-environment.js";

const CHAT = { proposal: "json", proposerMaxTokens: 40, solverPrompt: "words", solverSystem: "Answer with a number.", solverMaxTokens: 24, extractor: "tolerant" } as const;
const system = (request: GenerationRequest) => request.messages[0]?.content ?? "";
const asked = (request: GenerationRequest) => request.messages.at(-1)?.content ?? "";

describe("the proposer-solver environment's chat forms", () => {
  it("evaluates the solver on the arithmetic held-out problems, asked and read as its Steps are", async () => {
    const environment = createProposerSolverEnvironment({ ...CHAT, evaluateProblems: 6 });
    const problems = heldOutExamples(6);
    // Right on even problems (a worded answer), wrong on odd ones.
    const client = new ScriptedInferenceClient({
      rules: [{ when: () => true, reply: (request) => { const index = problems.findIndex((example) => asked(request) === `What is ${example.problem.replace(/([-+])/, " $1 ")}?`); return index % 2 === 0 ? `So it is ${problems[index]!.answer}.` : "Answer: 1000"; } }],
    });
    const evaluation = await environment.evaluate!(client);
    expect(client.requests.map((request) => [system(request), request.sampler.maxTokens, request.sampler.temperature])).toEqual(problems.map(() => ["Answer with a number.", 24, 0]));
    expect(evaluation).toMatchObject({ heldOutAccuracy: 0.5, n: 6 });
    expect(environment.evaluatesPassAtK).toBe(true);
  });

  it("passes its forms to the episodes, drops held-out proposals only when it evaluates, and keeps the base's defaults", async () => {
    const [proposer, solver] = await loadEpisodeModule(createProposerSolverEnvironment({ ...CHAT, evaluateProblems: 6 }).episodes);
    expect([proposer?.roles[0]?.sampler, solver?.roles[0]?.systemPrompt, solver?.roles[0]?.sampler]).toEqual([{ maxTokens: 40 }, "Answer with a number.", { maxTokens: 24 }]);
    expect(createProposerSolverEnvironment({ ...CHAT, evaluateProblems: 6 }).episodes.options).toMatchObject({ dropHeldOut: true });
    expect(createProposerSolverEnvironment(CHAT).episodes.options).not.toHaveProperty("dropHeldOut");
    const bare = createProposerSolverEnvironment();
    expect(bare.evaluate).toBeUndefined();
    const [baseProposer, baseSolver] = await loadEpisodeModule(bare.episodes);
    expect([baseProposer?.roles[0]?.sampler, baseSolver?.roles[0]?.systemPrompt, baseSolver?.roles[0]?.sampler]).toEqual([{ maxTokens: 12 }, "Solve the arithmetic problem. Reply with the number only.", { maxTokens: 8 }]);
  });

  it("refuses a bad form naming the field", () => {
    expect(() => createProposerSolverEnvironment({ proposal: "yaml" })).toThrow(InvalidInputError);
    expect(() => createProposerSolverEnvironment({ extractor: "middle" })).toThrow(/environment\.extractor/);
    expect(() => createProposerSolverEnvironment({ dropHeldOut: true })).toThrow(/environment\.dropHeldOut/);
  });

  it("summarises a step: valid share, solve rate, distinct problems, the proposer's reward on valid problems", async () => {
    const environment = createProposerSolverEnvironment({ ...CHAT, prompts: 2, groupSize: 2, solvers: 2 });
    const proposals = ['{"problem": "2+2"}', '{"problem": "2+2"}', '{"problem": "3*3"}', '{"problem": "1+'];
    let proposal = 0;
    let twoPlusTwo = 0;
    const client = new ScriptedInferenceClient({
      capabilities: { grammars: true },
      rules: [
        { when: (request) => system(request).startsWith("You write"), reply: () => proposals[proposal++ % proposals.length] as string },
        // Each 2+2 solved by one of its two solvers (the tolerant extractor reads the last number), 3*3 by both.
        { when: (request) => asked(request) === "What is 2 + 2?", reply: () => (twoPlusTwo++ % 2 === 0 ? "4" : "4 or 5, 5") },
        { when: (request) => asked(request) === "What is 3 * 3?", reply: "9" },
      ],
    });
    const arena = new Arena({ client, seed: 1, concurrency: 1 });
    for (const episode of await loadEpisodeModule(environment.episodes)) arena.register(episode, environment.stores[episode.type]);
    const results = await arena.generateRollouts(arena.getBatch(environment.plan));
    const summary = environment.summarise!(results);
    const valid = results.filter((result) => result.rollout.artifacts.valid === true);
    expect(valid.map((result) => result.rollout.artifacts.problem)).toEqual(["2+2", "2+2", "3*3"]);
    expect(summary).toEqual({
      validProposals: 0.75,
      solveRate: 4 / 6,
      distinctProblems: 2,
      validProposerReward: valid.reduce((sum, result) => sum + result.rewards.proposer!, 0) / 3,
    });
  });
});
