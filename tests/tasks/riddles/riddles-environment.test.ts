import { mkdtemp, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { Arena } from "../../../src/arena/arena.js";
import { loadEpisodeModule } from "../../../src/arena/pool/episode-module.js";
import type { GenerationRequest } from "../../../src/core/inference-client.js";
import type { GenerateResult } from "../../../src/core/schemas/generate-result.js";
import { ScriptedInferenceClient } from "../../../src/inference/scripted-inference-client.js";
import { loadEnvironment } from "../../../src/tasks/built-in-environments.js";
import { firstRiddleArtifact, nextRiddleArtifact } from "../../../src/tasks/riddles/next-riddle-artifact.js";
import { createRiddlesEnvironment } from "../../../src/tasks/riddles/riddles-environment.js";
import type { RiddlesEnvironmentOptionsInput } from "../../../src/tasks/riddles/riddles-environment-options.js";
import { riddlesStepSummary } from "../../../src/tasks/riddles/riddles-step-summary.js";
import { bundledArithmeticBase } from "../../../src/inference/model-files/bundled-models.js";
import { parseRiddleConfig } from "../../../src/riddles/riddle-config.js";
import type { RiddleEpisodeOutcome } from "../../../src/riddles/riddle-outcome.js";
import { train } from "../../../src/training/loop/train.js";
import type { TrainingStepMetrics } from "../../../src/training/loop/training-step-metrics.js";
import { expectTrainsAndResumes } from "../train-and-resume.js";

async function rollouts(directory: string): Promise<GenerateResult[]> {
  return (await readFile(join(directory, "rollouts.jsonl"), "utf8")).split("\n").filter((line) => line !== "").map((line) => JSON.parse(line) as GenerateResult);
}

/** A scored riddle result with just the fields the summary and the state read. */
function riddleResult(riddle: string | null, solveRate: number, options: { invalid?: number; nearDuplicate?: boolean; saved?: number } = {}): GenerateResult {
  const attempts = [
    ...Array.from({ length: options.invalid ?? 0 }, () => ({ riddle: null, raw: "x", valid: false, notes: "not a+b or a-b" })),
    ...(riddle === null ? [] : [{ riddle: null, raw: riddle, valid: true, notes: "" }]),
  ];
  const runs = riddle === null ? 0 : 10 - (options.saved ?? 0);
  const outcome = {
    attempts,
    riddle: riddle === null ? null : { riddle },
    solverRuns: Array.from({ length: runs }, () => ({})),
    solved: Math.round(solveRate * runs),
    solveRate: riddle === null ? null : solveRate,
    earlyStop: { stopped: (options.saved ?? 0) > 0, side: null, afterSolvers: runs },
    solverCallsSaved: options.saved ?? 0,
    duplicate: { similarity: options.nearDuplicate ? 1 : 0, nearDuplicate: options.nearDuplicate ?? false, of: null },
    riddlerReward: riddle === null ? 0 : 0.5,
  } as unknown as RiddleEpisodeOutcome;
  const steps = attempts.map((attempt) => ({ roleId: attempt.valid ? "riddler" : "riddler-rejected" }));
  return { rollout: { episodeType: "riddle", artifacts: outcome, steps }, outcome: { status: "scored" }, rewards: {}, children: [] } as unknown as GenerateResult;
}

/** Each scripted riddle's right answers out of 10 solvers; a sixth episode's one draft is invalid (no rewrite), so it has no riddle. */
const RIGHT_OF_TEN: Record<string, number> = { "12+7": 3, "30-4": 7, "5+5": 2, "61-20": 8, "8+9": 5 };

/** A fresh script: the riddler's drafts in order, each riddle's solvers right for its first RIGHT_OF_TEN answers, the actor "steady". */
function scriptedRiddlesClient(): ScriptedInferenceClient {
  const drafts = ["12+7", "hello", "30-4", "5+5", "61-20", "8+9"];
  let drafted = 0;
  const answered = new Map<string, number>();
  const last = (request: GenerationRequest) => request.messages.at(-1)?.content ?? "";
  const solve = (request: GenerationRequest) => {
    const problem = last(request).slice(0, -1);
    const index = answered.get(problem) ?? 0;
    answered.set(problem, index + 1);
    const [a, operator, b] = /^(\d+)([+-])(\d+)$/.exec(problem)!.slice(1) as [string, string, string];
    const answer = operator === "+" ? Number(a) + Number(b) : Number(a) - Number(b);
    return String(index < RIGHT_OF_TEN[problem]! ? answer : answer + 1);
  };
  return new ScriptedInferenceClient({
    capabilities: { grammars: true },
    rules: [
      { when: (request) => last(request).startsWith("propose "), reply: () => drafts[Math.min(drafted++, drafts.length - 1)]! },
      { when: (request) => last(request).endsWith("="), reply: solve },
      { when: (request) => last(request).startsWith("status "), reply: "steady" },
    ],
  });
}

describe("the riddles environment", () => {
  let folder: string;

  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), "selfplay-riddles-env-"));
  });

  it("plans groups of riddle episodes, takes the curriculum config's fields strictly, and refuses bad options by name", async () => {
    const environment = createRiddlesEnvironment({ episodesPerStep: 3, groupSize: 2, solvers: 6 });
    expect(environment.name).toBe("riddles");
    expect(environment.plan).toEqual([{ episodeType: "riddle", count: 3, groupSize: 2 }]);
    expect(environment.stores.riddle?.size).toBe(1);
    expect(environment.labelledEpisodeTypes).toEqual(["riddle-solve"]);
    expect((environment.episodes.options as { solvers: number }).solvers).toBe(6);
    expect(environment.frozenRoles).toBeUndefined();
    expect(createRiddlesEnvironment({ groupSize: 1 }).plan).toEqual([{ episodeType: "riddle", count: 4 }]);
    expect(createRiddlesEnvironment({ frozenSolvers: true }).frozenRoles).toEqual({ solver: "base", partner: "base" });
    expect((await loadEnvironment("riddles", {})).name).toBe("riddles");
    await expect(loadEnvironment("riddles", { solver: 4 })).rejects.toThrow(/environment\.solver.*solvers/);
    await expect(loadEnvironment("riddles", { band: { low: 0.3, hi: 0.7 } })).rejects.toThrow(/environment\.band\.hi/);
    await expect(loadEnvironment("riddles", { episodesPerStep: 0 })).rejects.toThrow(/environment\.episodesPerStep/);
  });

  it("carries the curriculum state across steps: episode counter, recent riddles within the window, a short memory excerpt", () => {
    const config = parseRiddleConfig({ duplicates: { window: 3 }, memory: { excerptEpisodes: 2 } });
    const afterOne = nextRiddleArtifact(firstRiddleArtifact(), [riddleResult("1+2", 0.4), riddleResult(null, 0, { invalid: 3 })], config);
    expect(afterOne).toEqual({ episodeIndex: 2, riddlerMemory: "- 1+2 solved 40%", actorMemory: "", recentRiddles: ["1+2"] });
    const afterTwo = nextRiddleArtifact(afterOne, [riddleResult("3+4", 1), riddleResult("5-1", 0), riddleResult("1+2", 0.5, { nearDuplicate: true })], config);
    expect(afterTwo.episodeIndex).toBe(5);
    expect(afterTwo.recentRiddles).toEqual(["3+4", "5-1", "1+2"]);
    expect(afterTwo.riddlerMemory).toBe("- 5-1 solved 0%\n- 1+2 solved 50% (near-duplicate)");
  });

  it("summarises a step: band share of valid riddles, invalid and duplicate rates, calls saved, rejected drafts", () => {
    const config = parseRiddleConfig({});
    const summary = riddlesStepSummary(
      [riddleResult("1+2", 0.5), riddleResult("3+4", 1, { saved: 5 }), riddleResult(null, 0, { invalid: 3 }), riddleResult("9-3", 0.3, { invalid: 1, nearDuplicate: true })],
      config,
    );
    expect(summary).toMatchObject({ riddleEpisodes: 4, validRiddles: 3, invalidRate: 4 / 7, rejectedDrafts: 4, duplicateRate: 1 / 3, solverCallsSaved: 5, earlyStops: 1 });
    expect(summary.bandShare).toBeCloseTo(2 / 3, 12);
    // Each valid riddle is in the band, below it or above it.
    expect([summary.belowBand, summary.aboveBand]).toEqual([0, 1 / 3]);
    expect(summary.meanSolveRate).toBeCloseTo(0.6, 12);
  });

  it("reports a scripted run's band share as counted by hand: the step line's bandShare, the evaluation's heldOutAccuracy and n", async () => {
    const options: RiddlesEnvironmentOptionsInput = { episodesPerStep: 6, groupSize: 1, solvers: 10, waveSize: 5, earlyStop: { enabled: false }, validityRetries: 0, evaluateEpisodes: 6 };
    // By hand: a riddle is in the default band [0.3, 0.7], ends included, when 3 to 7 of its 10 solvers are right; the share is over the 5 valid riddles, not the 6 episodes.
    const counts = Object.values(RIGHT_OF_TEN);
    const inBandByHand = counts.filter((right) => right >= 3 && right <= 7).length / counts.length;
    expect(inBandByHand).toBe(3 / 5);
    const environment = createRiddlesEnvironment(options);
    const arena = new Arena({ client: scriptedRiddlesClient(), seed: 1 });
    try {
      for (const episode of await loadEpisodeModule(environment.episodes)) arena.register(episode);
      const artifact = environment.stores["riddle"]!.snapshot().entries[0]!.artifact;
      const results = await arena.generateRollouts(Array.from({ length: 6 }, () => ({ episodeType: "riddle", artifact })));
      const riddles = results.flatMap((result) => (result.rollout.artifacts as unknown as RiddleEpisodeOutcome).riddle?.riddle ?? []);
      expect(riddles.sort()).toEqual(Object.keys(RIGHT_OF_TEN).sort());
      expect(environment.summarise?.(results)).toMatchObject({ riddleEpisodes: 6, validRiddles: 5, bandShare: inBandByHand });
    } finally {
      await arena.close();
    }
    expect(await environment.evaluate?.(scriptedRiddlesClient())).toEqual({ heldOutAccuracy: inBandByHand, n: counts.length });
  });

  it("trains the bundled base with --trainer ggml: the riddler's grammar-bound drafts and the solvers' answers become records, the state moves on between steps, and the evaluation is a band share (real engine)", async () => {
    const options: RiddlesEnvironmentOptionsInput = { episodesPerStep: 2, groupSize: 2, solvers: 4, waveSize: 2, evaluateEpisodes: 4 };
    const directory = join(folder, "ggml");
    const lines: TrainingStepMetrics[] = [];
    const { evaluations } = await train({
      environment: await loadEnvironment("riddles", options),
      modelPath: bundledArithmeticBase(),
      directory,
      trainer: "ggml",
      configuration: { environment: options, steps: 2, seed: 5, sequences: 8, trainer: { optimizer: { learningRate: 1e-3 } } },
      onStep: (line) => lines.push(line),
    });
    expect(lines.map((line) => line.step)).toEqual([1, 2]);
    expect(evaluations.map((evaluation) => evaluation.step)).toEqual([0, 2]);
    for (const evaluation of evaluations) {
      // A share of the valid riddles of 4 episodes: a count of at most n over n.
      expect(evaluation.n).toBeLessThanOrEqual(4);
      const inBand = evaluation.heldOutAccuracy * evaluation.n;
      expect(inBand).toBeCloseTo(Math.round(inBand), 9);
      expect(Math.round(inBand)).toBeGreaterThanOrEqual(0);
      expect(Math.round(inBand)).toBeLessThanOrEqual(evaluation.n);
    }
    const results = (await rollouts(directory)).filter((result) => result.rollout.episodeType === "riddle");
    expect(results).toHaveLength(8);
    for (const line of lines) {
      expect(line.skippedUpdate).toBe(false);
      expect(line.trainedRecords).toBeGreaterThan(0);
      // The ggml trainer replays the riddler's grammar masks: no constrained record is left out.
      expect(line.skippedRecords.constrained).toBe(0);
      expect(line.environment.riddleEpisodes).toBe(4);
      // By hand from the step's records: a valid riddle is in the band [0.3, 0.7] when 3/10 ≤ solved/run ≤ 7/10 of its solvers' rewards.
      const step = results.slice(4 * (line.step - 1), 4 * line.step).filter((result) => (result.rollout.artifacts as unknown as RiddleEpisodeOutcome).riddle !== null);
      const inBand = step.filter((result) => {
        const solved = result.children.filter((child) => child.rewards["solver"] === 1).length;
        return 10 * solved >= 3 * result.children.length && 10 * solved <= 7 * result.children.length;
      });
      expect(line.environment.bandShare).toBe(step.length === 0 ? 0 : inBand.length / step.length);
    }
    const outcomes = results.map((result) => result.rollout.artifacts as unknown as RiddleEpisodeOutcome);
    // Step 1 starts at episode 0, step 2 after step 1's four episodes.
    expect(outcomes.map((outcome) => outcome.episodeIndex)).toEqual([0, 0, 0, 0, 4, 4, 4, 4]);
    const firstStepRiddles = new Set(outcomes.slice(0, 4).flatMap((outcome) => (outcome.riddle ? [outcome.riddle.riddle] : [])));
    for (const outcome of outcomes.slice(4)) {
      // Step 2's riddles are compared with step 1's: a repeat is a near-duplicate.
      if (outcome.riddle && firstStepRiddles.has(outcome.riddle.riddle)) expect(outcome.duplicate.nearDuplicate).toBe(true);
    }
    for (const outcome of outcomes.slice(0, 4)) expect(outcome.duplicate.similarity).toBe(0);
    for (const result of results) {
      for (const step of result.rollout.steps) {
        expect(["riddler", "riddler-rejected"]).toContain(step.roleId);
        expect(step.constrained).toBe(true);
      }
    }
  }, 60_000);

  it("a run killed during step 2 resumes from its checkpoint's curriculum state and ends as the uninterrupted run (real engine, ggml)", async () => {
    const options: RiddlesEnvironmentOptionsInput = { episodesPerStep: 2, groupSize: 2, solvers: 4, waveSize: 2, evaluateEpisodes: 2 };
    await expectTrainsAndResumes({
      environment: () => createRiddlesEnvironment(options),
      modelPath: bundledArithmeticBase(),
      folder: join(folder, "resume"),
      trainer: "ggml",
      configuration: { environment: options, steps: 3, seed: 3, sequences: 8, trainer: { optimizer: { learningRate: 1e-3 } } },
      // Small groups can tie (every riddle unsolved, every solver alike): this seed gives each step a non-zero advantage, which the helper asks for.
      killAt: 2,
    });
  }, 60_000);

  it("frozenSolvers: the base as it was answers every solver, so only the riddler's Steps become records (real engine, ggml)", async () => {
    const options: RiddlesEnvironmentOptionsInput = { episodesPerStep: 2, groupSize: 4, solvers: 4, waveSize: 2, evaluateEpisodes: 2, frozenSolvers: true };
    const directory = join(folder, "frozen");
    const lines: TrainingStepMetrics[] = [];
    await train({
      environment: createRiddlesEnvironment(options),
      modelPath: bundledArithmeticBase(),
      directory,
      trainer: "ggml",
      configuration: { environment: options, steps: 2, seed: 3, sequences: 8, evaluateEvery: 0, trainer: { optimizer: { learningRate: 1e-3 } } },
      onStep: (line) => lines.push(line),
    });
    const results = await rollouts(directory);
    const solverSteps = results.flatMap((result) => result.children.flatMap((child) => child.rollout.steps));
    expect(solverSteps.length).toBeGreaterThan(0);
    // Frozen Steps carry policy version 0 at every step and never become records.
    for (const step of solverSteps) expect(step.policyVersion).toBe(0);
    // At most the riddler's 8 drafts a step.
    for (const line of lines) expect(line.trainedRecords + line.skippedRecords.zeroAdvantage).toBeLessThanOrEqual(8);
    expect(lines.some((line) => line.trainedRecords > 0)).toBe(true);
  }, 60_000);
});
