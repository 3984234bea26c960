import { describe, expect, it } from "vitest";
import { Arena } from "../../../src/arena/arena.js";
import type { GenerationRequest } from "../../../src/core/inference-client.js";
import { ScriptedInferenceClient } from "../../../src/inference/scripted-inference-client.js";
import { parseArithmeticExpression } from "../../../src/tasks/arithmetic/arithmetic-expression.js";
import { REJECTED_RIDDLER_ROLE_ID } from "../../../src/riddles/episode/riddle-roles.js";
import { createRiddleEpisodes } from "../../../src/tasks/riddles/riddle-episodes.js";
import type { RiddleConfigInput } from "../../../src/riddles/riddle-config.js";
import type { RiddleEpisodeHooks } from "../../../src/riddles/riddle-episode-hooks.js";
import { RiddleEpisodeOutcomeSchema, type RiddleEpisodeOutcome } from "../../../src/riddles/riddle-outcome.js";

const last = (request: GenerationRequest) => request.messages.at(-1)?.content ?? "";

interface PlayOptions {
  seed?: number;
  hooks?: RiddleEpisodeHooks;
  recentRiddles?: string[];
}

/** Riddler replies in order (one per draft, the last repeated); solvers answer by `solve(problem, call index)`; the actor's status judge says "steady". */
async function play(config: RiddleConfigInput, riddler: readonly string[], solve: (problem: string, index: number) => string, options: PlayOptions = {}) {
  let drafts = 0;
  let solves = 0;
  const client = new ScriptedInferenceClient({
    capabilities: { grammars: true },
    rules: [
      { when: (request) => last(request).startsWith("propose "), reply: () => riddler[Math.min(drafts++, riddler.length - 1)] as string },
      { when: (request) => last(request).endsWith("="), reply: (request) => solve(last(request).slice(0, -1), solves++) },
      { when: (request) => last(request).startsWith("status "), reply: "steady" },
    ],
  });
  const arena = new Arena({ client, seed: options.seed ?? 1 });
  for (const episode of createRiddleEpisodes({ domain: "arithmetic", ...config }, { ...(options.hooks && { hooks: options.hooks }) })) arena.register(episode);
  const [result] = await arena.generateRollouts([{ episodeType: "riddle", artifact: { episodeIndex: 3, recentRiddles: options.recentRiddles ?? [] } }]);
  const outcome: RiddleEpisodeOutcome = RiddleEpisodeOutcomeSchema.parse(result!.rollout.artifacts);
  return { result: result!, outcome, arena, client };
}

const answerOf = (problem: string) => parseArithmeticExpression(problem)!.answer;
const right = (problem: string) => String(answerOf(problem));
const wrong = (problem: string) => String(answerOf(problem) + 1);
const noStop = { earlyStop: { enabled: false } } as const;

describe("the riddle episode, arithmetic domain (scripted client)", () => {
  it("rewrites an invalid riddle within the budget, counts it, leaves its Step out of training, and rewards solvers by correctness", async () => {
    const { result, outcome, arena, client } = await play({ solvers: 4, waveSize: 4, ...noStop }, ["hello", "150+3", "12+7"], (problem, index) =>
      index % 2 === 0 ? right(problem) : wrong(problem),
    );
    expect(result.outcome.status).toBe("scored");
    expect(outcome.attempts.map((attempt) => [attempt.raw, attempt.valid, attempt.notes])).toEqual([
      ["hello", false, "not a+b or a-b"],
      ["150+3", false, "an operand is above 99"],
      ["12+7", true, ""],
    ]);
    expect(outcome.riddle).toMatchObject({ riddle: "12+7", solution: "19" });
    // The riddler wrote under the a±b grammar.
    expect(client.requests[0]!.constraint).toEqual({ kind: "grammar", gbnf: "root ::= [1-9]? [0-9] [+-] [1-9]? [0-9]" });
    expect(result.rollout.steps.map((step) => step.roleId)).toEqual([REJECTED_RIDDLER_ROLE_ID, REJECTED_RIDDLER_ROLE_ID, "riddler"]);
    expect(outcome.solveRate).toBe(0.5);
    expect(result.rewards).toEqual({ riddler: 1, [REJECTED_RIDDLER_ROLE_ID]: 0 });
    expect(result.children.map((child) => child.rewards)).toEqual([{ solver: 1 }, { solver: 0 }, { solver: 1 }, { solver: 0 }]);
    // One credit group for the riddle's solvers.
    expect(new Set(result.children.map((child) => child.rollout.groupId)).size).toBe(1);
    expect(outcome.tokensByRole).toEqual({ [REJECTED_RIDDLER_ROLE_ID]: 5 + 5, riddler: 4, solver: 2 * 4 });
    const batch = arena.buildTrainingBatch([result], arena.assignCredit([result]), 0);
    expect(batch.records.map((record) => record.roleId)).toEqual(["riddler", "solver", "solver", "solver", "solver"]);
    expect(batch.stats.skippedSteps).toBe(2);
  });

  it("is a no-op when the retry budget runs out: no solvers, no riddler reward, nothing trained", async () => {
    const { result, outcome, arena } = await play({ validityRetries: 1 }, ["hello"], right);
    expect(outcome.attempts).toHaveLength(2);
    expect(outcome).toMatchObject({ riddle: null, solverRuns: [], solveRate: null, riddlerReward: 0, solverCallsSaved: 0 });
    expect(result.children).toEqual([]);
    expect(result.rewards).toEqual({ [REJECTED_RIDDLER_ROLE_ID]: 0 });
    const batch = arena.buildTrainingBatch([result], arena.assignCredit([result]), 0);
    expect(batch.records).toEqual([]);
    expect(batch.stats.skippedSteps).toBe(2);
  });

  it("stops early below the band (none solved) and above it (all solved), recording the calls saved", async () => {
    const config = { solvers: 10, waveSize: 5, earlyStop: { enabled: true, wilsonZ: 1 } };
    const below = await play(config, ["12+7"], wrong);
    expect(below.outcome.earlyStop).toEqual({ stopped: true, side: "below", afterSolvers: 5 });
    expect(below.outcome.solverCallsSaved).toBe(5);
    expect(below.result.children).toHaveLength(5);
    expect(below.outcome.riddlerReward).toBeCloseTo(Math.exp(-0.5 * 25), 15);
    const above = await play(config, ["12+7"], right);
    expect(above.outcome.earlyStop).toEqual({ stopped: true, side: "above", afterSolvers: 5 });
    expect(above.outcome.solverCallsSaved).toBe(5);
  });

  it("does not stop while the interval overlaps the band", async () => {
    const { outcome } = await play({ solvers: 10, waveSize: 5, earlyStop: { enabled: true, wilsonZ: 1 } }, ["12+7"], (problem, index) => (index % 2 === 0 ? right(problem) : wrong(problem)));
    expect(outcome.earlyStop).toEqual({ stopped: false, side: null, afterSolvers: 10 });
    expect(outcome.solverRuns.map((run) => run.wave)).toEqual([0, 0, 0, 0, 0, 1, 1, 1, 1, 1]);
    expect(outcome.solverCallsSaved).toBe(0);
  });

  it("subtracts the duplicate penalty from a near-duplicate of a recent riddle", async () => {
    const config = { solvers: 2, ...noStop, duplicates: { threshold: 0.8, window: 5, penalty: 0.25 } };
    const solve = (problem: string, index: number) => (index === 0 ? right(problem) : wrong(problem));
    const repeated = await play(config, ["12+7"], solve, { recentRiddles: ["3+4", "12+7"] });
    expect(repeated.outcome.duplicate).toEqual({ similarity: 1, nearDuplicate: true, of: "12+7" });
    expect(repeated.result.rewards.riddler).toBeCloseTo(1 - 0.25, 12);
    const fresh = await play(config, ["12+7"], solve, { recentRiddles: ["85-3"] });
    expect(fresh.outcome.duplicate.nearDuplicate).toBe(false);
    expect(fresh.result.rewards.riddler).toBeCloseTo(1, 12);
    // Outside the window, a repeat is not compared.
    const forgotten = await play({ ...config, duplicates: { threshold: 0.8, window: 1, penalty: 0.25 } }, ["12+7"], solve, { recentRiddles: ["12+7", "85-3"] });
    expect(forgotten.outcome.duplicate).toMatchObject({ nearDuplicate: false, of: "85-3" });
  });

  it("streams a grade per solver, awaits betweenSolvers between solvers, and writes the actor's status every N solvers", async () => {
    const events: string[] = [];
    const hooks: RiddleEpisodeHooks = {
      onSolverGraded: (progress) => events.push(`graded ${progress.solversRun}/${progress.solversPlanned} solved ${progress.solvedSoFar}`),
      betweenSolvers: async (progress) => {
        events.push(`between ${progress.solversRun}`);
        await new Promise<void>((resolve) => setImmediate(resolve));
        events.push(`between ${progress.solversRun} done`);
      },
    };
    const { outcome, client } = await play({ solvers: 4, waveSize: 2, ...noStop, statusEverySolvers: 2 }, ["12+7"], (problem, index) => (index < 3 ? right(problem) : wrong(problem)), { hooks });
    expect(events).toEqual([
      "graded 1/4 solved 1",
      "between 1",
      "between 1 done",
      "graded 2/4 solved 2",
      "between 2",
      "between 2 done",
      "graded 3/4 solved 3",
      "between 3",
      "between 3 done",
      "graded 4/4 solved 3",
    ]);
    expect(outcome.statusSummaries).toHaveLength(2);
    expect(outcome.statusSummaries[1]).toMatch(/^status 12\+7: 3\/4 of 4 solved; right .*; wrong .* — steady$/);
    // The status is a judge call: no Step, and its prompt stays short for the bundled base.
    const statusRequests = client.requests.filter((request) => last(request).startsWith("status "));
    expect(statusRequests).toHaveLength(2);
    for (const request of statusRequests) expect(Buffer.byteLength(request.messages.map((message) => message.content).join(""))).toBeLessThan(200);
  });

  it("grades a wave at once when grading is not streamed (betweenSolvers between waves), with the same outcome as streamed", async () => {
    const events: string[] = [];
    const hooks: RiddleEpisodeHooks = {
      onSolverGraded: (progress) => events.push(`graded ${progress.solversRun}`),
      betweenSolvers: async (progress) => void events.push(`between ${progress.solversRun}`),
    };
    const solve = (problem: string) => (problem.length > 3 ? right(problem) : wrong(problem));
    const waves = await play({ solvers: 4, waveSize: 2, ...noStop, streamGradeEachSolver: false }, ["12+7"], solve, { hooks });
    expect(events).toEqual(["graded 1", "graded 2", "between 2", "graded 3", "graded 4"]);
    const streamed = await play({ solvers: 4, waveSize: 2, ...noStop, streamGradeEachSolver: true }, ["12+7"], solve);
    expect(waves.outcome).toEqual(streamed.outcome);
  });

  it("is deterministic given the seed: the same rollouts twice, other profiles under another seed", async () => {
    const randomSolver = () => {
      let calls = 0;
      return (problem: string) => ((calls++ * 7) % 3 === 0 ? right(problem) : wrong(problem));
    };
    const config = { solvers: 6, waveSize: 3, ...noStop };
    const first = await play(config, ["12+7"], randomSolver(), { seed: 11 });
    const again = await play(config, ["12+7"], randomSolver(), { seed: 11 });
    expect(again.result.rollout).toEqual(first.result.rollout);
    expect(again.result.children.map((child) => child.rollout)).toEqual(first.result.children.map((child) => child.rollout));
    const profilesUnder = async (seed: number) => (await play(config, ["12+7"], randomSolver(), { seed })).outcome.solverRuns.map((run) => run.profile).join();
    const seen = new Set(await Promise.all([1, 2, 3, 4, 5].map(profilesUnder)));
    expect(seen.size).toBeGreaterThan(1);
  });
});
