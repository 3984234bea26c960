import { describe, expect, it } from "vitest";
import { Arena } from "../../../src/arena/arena.js";
import type { JsonValue } from "../../../src/core/json.js";
import type { GenerationRequest } from "../../../src/core/inference-client.js";
import { ScriptedInferenceClient } from "../../../src/inference/scripted-inference-client.js";
import { REJECTED_RIDDLER_ROLE_ID } from "../../../src/riddles/episode/riddle-roles.js";
import { createRiddleEpisodes } from "../../../src/tasks/riddles/riddle-episodes.js";
import type { RiddleConfigInput } from "../../../src/riddles/riddle-config.js";
import { RiddleEpisodeOutcomeSchema } from "../../../src/riddles/riddle-outcome.js";
import { RiddleSchema, SolverAnswerSchema } from "../../../src/riddles/riddle-contracts.js";

const system = (request: GenerationRequest) => request.messages[0]?.content ?? "";
const last = (request: GenerationRequest) => request.messages.at(-1)?.content ?? "";

const PIANO = { riddle: "What has keys but opens no locks?", solution: "a piano", solutionRationale: "a piano has keys", tags: ["wordplay"], difficultyGuessPct: 50, gradingRules: "any keyboard instrument" };

interface Script {
  riddler: readonly string[];
  /** The critic's verdict on a riddle's JSON. */
  valid?: (riddle: string) => boolean;
  /** A solver's reply to its prompt. */
  solver: (prompt: string, index: number) => object;
}

async function play(config: RiddleConfigInput, script: Script, artifact: JsonValue = { episodeIndex: 0 }) {
  let drafts = 0;
  let solves = 0;
  const client = new ScriptedInferenceClient({
    capabilities: { jsonSchema: true },
    rules: [
      { when: (request) => system(request).startsWith("You are the riddler"), reply: () => script.riddler[Math.min(drafts++, script.riddler.length - 1)] as string },
      { when: (request) => system(request).startsWith("You are the critic. Is the riddle valid"), reply: (request) => JSON.stringify({ valid: (script.valid ?? (() => true))(last(request)), notes: "checked" }) },
      { when: (request) => system(request).startsWith("You solve riddles"), reply: (request) => JSON.stringify(script.solver(last(request), solves++)) },
      { when: (request) => system(request).startsWith("You are a partner"), reply: `Think of music. ${"It is played. ".repeat(20)}` },
      {
        when: (request) => system(request).startsWith("You are the critic. Grade"),
        reply: (request) => JSON.stringify({ correct: (JSON.parse(last(request)) as { answer: string }).answer === "a piano", notes: "" }),
      },
    ],
  });
  const arena = new Arena({ client, seed: 2 });
  for (const episode of createRiddleEpisodes({ domain: "free-form", ...config })) arena.register(episode);
  const [result] = await arena.generateRollouts([{ episodeType: "riddle", artifact }]);
  return { result: result!, outcome: RiddleEpisodeOutcomeSchema.parse(result!.rollout.artifacts), arena, client };
}

const answer = (finalAnswer: string, needed = false) => ({ finalAnswer, confidence: 0.6, checks: [], helpRequest: { needed, whatITried: "locks", whereIAmStuck: "keys" } });
const noStop = { earlyStop: { enabled: false } } as const;

describe("the riddle episode, free-form domain (scripted client, LLM critic)", () => {
  it("regenerates after an unparsable draft and a critic rejection, filing both Steps under the untrainable role", async () => {
    const { result, outcome, arena, client } = await play(
      { solvers: 2, ...noStop },
      { riddler: ["I am thinking of a riddle", JSON.stringify({ ...PIANO, riddle: "What is it?" }), JSON.stringify(PIANO)], valid: (request) => (JSON.parse(request) as { riddle: string }).riddle.includes("keys"), solver: (_prompt, index) => answer(index === 0 ? "a piano" : "a map") },
      { episodeIndex: 4, riddlerMemory: "ep3 solve 0.9 too easy", actorMemory: "verify helped", recentRiddles: ["What runs but never walks?"] },
    );
    expect(outcome.attempts.map((attempt) => [attempt.riddle?.riddle ?? null, attempt.valid])).toEqual([
      [null, false],
      ["What is it?", false],
      [PIANO.riddle, true],
    ]);
    expect(outcome.attempts[0]!.notes).toMatch(/^not a riddle: /);
    expect(outcome.attempts[1]!.notes).toBe("checked");
    expect(result.rollout.steps.map((step) => [step.roleId, step.structured?.valid])).toEqual([
      [REJECTED_RIDDLER_ROLE_ID, false],
      [REJECTED_RIDDLER_ROLE_ID, true],
      ["riddler", true],
    ]);
    // The riddler's prompt carries the memory, the recent riddles and the critic's notes after a rejection; every call is schema-bound.
    const riddlerPrompts = client.requests.filter((request) => system(request).startsWith("You are the riddler")).map(last);
    expect(riddlerPrompts[0]).toContain("ep3 solve 0.9 too easy");
    expect(riddlerPrompts[0]).toContain("What runs but never walks?");
    expect(riddlerPrompts[2]).toContain("Your last riddle was rejected: checked");
    expect(client.requests.every((request) => request.constraint?.kind === "json-schema")).toBe(true);
    // Solvers see their profile and the actor's memory, never the solution.
    const solverPrompts = client.requests.filter((request) => system(request).startsWith("You solve riddles")).map(last);
    expect(solverPrompts[0]).toMatch(/^Instructions: .+\nWhat worked before:\nverify helped\nRiddle: What has keys/);
    for (const prompt of solverPrompts) expect(prompt).not.toContain("piano");
    expect(outcome.solverRuns.map((run) => [run.correct, run.answer?.finalAnswer])).toEqual([[true, "a piano"], [false, "a map"]]);
    expect(result.rewards.riddler).toBeCloseTo(1, 12);
    const batch = arena.buildTrainingBatch([result], arena.assignCredit([result]), 0);
    expect(batch.records.map((record) => record.roleId)).toEqual(["riddler", "solver", "solver"]);
  });

  it("opens a partner discussion on a help request, keeps only a short summary, and caps partners per solver", async () => {
    const { result, outcome } = await play(
      { solvers: 2, ...noStop, maxPartnersPerSolver: 2, maxTotalPartners: 10 },
      // Solver 1 asks for help, then answers with the hint; solver 2 answers at once.
      { riddler: [JSON.stringify(PIANO)], solver: (prompt, index) => (index === 0 ? answer("a map", true) : prompt.includes("A partner's hint: Think of music.") ? answer("a piano") : answer("a map")) },
    );
    const [first, second] = outcome.solverRuns;
    expect(first).toMatchObject({ askedPartner: true, correct: true });
    expect(first!.partnerSummary.length).toBeLessThanOrEqual(160);
    expect(first!.partnerSummary.startsWith("Think of music.")).toBe(true);
    expect(outcome.partnersUsed).toBe(1);
    // Rewards: the partner shares its solver's.
    expect(result.children[0]!.rewards).toEqual({ solver: 1, partner: 1 });
    expect(second).toMatchObject({ askedPartner: false });
    expect(result.children[0]!.rollout.steps.map((step) => step.roleId)).toEqual(["solver", "partner", "solver"]);
    expect(result.children[1]!.rewards).toEqual({ solver: 0 });
  });

  it("stops at maxPartnersPerSolver for a solver that keeps asking, and at maxTotalPartners across solvers", async () => {
    const asking = { riddler: [JSON.stringify(PIANO)], solver: () => answer("a map", true) };
    const perSolver = await play({ solvers: 2, ...noStop, maxPartnersPerSolver: 2, maxTotalPartners: 10 }, asking);
    expect(perSolver.result.children.map((child) => child.rollout.steps.map((step) => step.roleId).join())).toEqual([
      "solver,partner,solver,partner,solver",
      "solver,partner,solver,partner,solver",
    ]);
    expect(perSolver.outcome.partnersUsed).toBe(4);
    const total = await play({ solvers: 4, ...noStop, maxPartnersPerSolver: 1, maxTotalPartners: 3 }, asking);
    expect(total.outcome.solverRuns.map((run) => run.askedPartner)).toEqual([true, true, true, false]);
    expect(total.outcome.partnersUsed).toBe(3);
    expect(total.result.children[3]!.rewards).toEqual({ solver: 0 });
  });

  it("returns an unused partner allowance to the episode (a solver that does not ask uses none)", async () => {
    const { outcome } = await play(
      { solvers: 4, ...noStop, maxPartnersPerSolver: 1, maxTotalPartners: 2 },
      { riddler: [JSON.stringify(PIANO)], solver: (_prompt, index) => answer("a map", index >= 1) },
    );
    expect(outcome.solverRuns.map((run) => run.askedPartner)).toEqual([false, true, true, false]);
  });

  it("counts a solver whose output never validates as not solved", async () => {
    const { outcome, result } = await play({ solvers: 1, ...noStop }, { riddler: [JSON.stringify(PIANO)], solver: () => ({ guess: "piano" }) });
    expect(outcome.solverRuns[0]).toMatchObject({ answer: null, correct: false, gradeNotes: "the solver's output did not parse" });
    expect(result.children[0]!.rewards).toEqual({ solver: 0 });
  });

  it("takes its token budgets and worked exchanges from the config's freeForm, and refuses a misspelt setting", async () => {
    const budgets = { riddlerMaxTokens: 300, solverMaxTokens: 180, validityMaxTokens: 60, gradeMaxTokens: 50 };
    const script = { riddler: [JSON.stringify(PIANO)], solver: () => answer("a piano") };
    const calls = (client: ScriptedInferenceClient, prompt: string) => client.requests.filter((request) => system(request).startsWith(prompt));
    const { client, outcome } = await play({ solvers: 1, ...noStop, freeForm: { ...budgets, workedExamples: true } }, script);
    expect(outcome.solverRuns.map((run) => run.correct)).toEqual([true]);
    const worked = (prompt: string) => calls(client, prompt).map((request) => [request.sampler.maxTokens, request.messages.slice(1, -1).map((message) => message.role)]);
    expect(worked("You are the riddler")).toEqual([[300, ["user", "assistant"]]]);
    expect(worked("You solve riddles")).toEqual([[180, ["user", "assistant"]]]);
    expect(worked("You are the critic. Is the riddle valid")).toEqual([[60, ["user", "assistant"]]]);
    expect(worked("You are the critic. Grade")).toEqual([[50, ["user", "assistant", "user", "assistant"]]]);
    // Each worked answer is the compact JSON of its contract, as the grammar writes it.
    const [example] = calls(client, "You are the riddler").map((request) => request.messages[2]!.content);
    expect(JSON.stringify(RiddleSchema.parse(JSON.parse(example!)))).toBe(example);
    const [solverExample] = calls(client, "You solve riddles").map((request) => request.messages[2]!.content);
    expect(JSON.stringify(SolverAnswerSchema.parse(JSON.parse(solverExample!)))).toBe(solverExample);

    const plain = await play({ solvers: 1, ...noStop }, script);
    expect(plain.client.requests.map((request) => [request.sampler.maxTokens, request.messages.length])).toEqual([
      [400, 2],
      [160, 2],
      [200, 2],
      [120, 2],
    ]);
    expect(() => createRiddleEpisodes({ domain: "free-form", freeForm: { workedExample: true } } as never)).toThrow(/freeForm\.workedExample/);
  });
});
