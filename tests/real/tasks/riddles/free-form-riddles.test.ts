import { describe, expect, it } from "vitest";
import { Arena } from "../../../../src/arena/arena.js";
import { gaussianSolveRateReward } from "../../../../src/core/rewards/gaussian-solve-rate-reward.js";
import type { Step } from "../../../../src/core/schemas/step.js";
import { jsonSchemaConstraint } from "../../../../src/core/structured/json-schema-constraint.js";
import { RIDDLE_EPISODE_TYPE } from "../../../../src/riddles/episode/riddle-episode.js";
import { REJECTED_RIDDLER_ROLE_ID } from "../../../../src/riddles/episode/riddle-roles.js";
import { RiddleArtifactSchema } from "../../../../src/riddles/riddle-artifact.js";
import { RiddleSchema, SolverAnswerSchema } from "../../../../src/riddles/riddle-contracts.js";
import { RiddleEpisodeOutcomeSchema } from "../../../../src/riddles/riddle-outcome.js";
import { createRiddleEpisodes } from "../../../../src/tasks/riddles/riddle-episodes.js";
import { createRiddlesEnvironment } from "../../../../src/tasks/riddles/riddles-environment.js";
import { REAL_MODEL_SKIP_REASON, realModelAvailable } from "../../real-model.js";
import { useRealModelClient } from "../../use-real-model-client.js";

/** The free-form domain as benchmarks/configs/riddles-free-form-smollm2.json plays it, at a test's sizes. */
const OPTIONS = {
  domain: "free-form",
  solvers: 2,
  waveSize: 2,
  validityRetries: 1,
  maxPartnersPerSolver: 0,
  maxTotalPartners: 0,
  earlyStop: { enabled: false },
  freeForm: { workedExamples: true, riddlerMaxTokens: 160, solverMaxTokens: 96, validityMaxTokens: 48, gradeMaxTokens: 48 },
  episodesPerStep: 1,
  groupSize: 2,
  temperature: 0.7,
} as const;

/** Every recorded Step's bookkeeping: the client's version, one finite logprob a completion token, the schema's grammar. */
function expectRecorded(step: Step, schema: Parameters<typeof jsonSchemaConstraint>[0]): void {
  expect(step.policyVersion).toBe(0);
  expect(step.completionLogprobs).toHaveLength(step.completionTokenIds.length);
  for (const logprob of step.completionLogprobs) expect(Number.isFinite(logprob) && logprob <= 0).toBe(true);
  expect([step.constrained, step.constraint]).toEqual([true, jsonSchemaConstraint(schema)]);
}

// About 40 s on one thread of an idle machine: two riddle episodes of SmolLM2 (a draft of ≤ 160 tokens, the critic's
// verdict, two solvers of ≤ 96 tokens and their grades), a redraft where the critic rejects one.
describe(`the riddle curriculum's free-form domain on SmolLM2${REAL_MODEL_SKIP_REASON}`, () => {
  const client = useRealModelClient({ sequences: 2, contextSize: 1024 });

  it.skipIf(!realModelAvailable)("drafts under the riddle schema, solves and grades, and keeps the band's books: solve rate, reward, band share, the next curriculum state", async () => {
    const environment = createRiddlesEnvironment(OPTIONS);
    const arena = new Arena({ client: client(), seed: 4, concurrency: 2, samplerDefaults: { temperature: OPTIONS.temperature } });
    // The episodes from the environment's module options (the curriculum config), made here rather than from the build.
    for (const episode of createRiddleEpisodes(environment.episodes.options)) arena.register(episode, environment.stores[episode.type]);
    const results = await arena.generateRollouts(arena.getBatch(environment.plan));
    expect(results).toHaveLength(2);
    const band = { low: 0.3, high: 0.7 };
    const outcomes = results.map((result) => {
      expect(result.outcome).toEqual({ status: "scored" });
      const outcome = RiddleEpisodeOutcomeSchema.parse(result.rollout.artifacts);
      // Each draft a Step under the riddle schema's grammar: parsed into the attempt, or refused and filed untrainable.
      const drafts = result.rollout.steps;
      expect(drafts.map((step) => step.roleId)).toEqual(outcome.attempts.map((attempt) => (attempt.valid ? "riddler" : REJECTED_RIDDLER_ROLE_ID)));
      for (const [index, step] of drafts.entries()) {
        expectRecorded(step, RiddleSchema);
        const attempt = outcome.attempts[index]!;
        const parsed = RiddleSchema.safeParse((() => { try { return JSON.parse(step.completion[0]!.content); } catch { return undefined; } })());
        expect(attempt.riddle).toEqual(parsed.success ? parsed.data : null);
        if (!parsed.success) expect(step.finishReason).toBe("length");
      }
      // The solvers of an accepted riddle: Steps under the answer schema, the critic's grades, the rate they make.
      expect(result.children).toHaveLength(outcome.riddle === null ? 0 : 2);
      for (const [index, child] of result.children.entries()) {
        for (const step of child.rollout.steps) expectRecorded(step, SolverAnswerSchema);
        const run = outcome.solverRuns[index]!;
        expect(child.rewards.solver).toBe(run.correct ? 1 : 0);
        expect(run.answer === null || SolverAnswerSchema.safeParse(JSON.parse(child.rollout.steps.at(-1)!.completion[0]!.content)).success).toBe(true);
      }
      expect(outcome.solved).toBe(outcome.solverRuns.filter((run) => run.correct).length);
      if (outcome.riddle !== null) {
        expect(outcome.solveRate).toBe(outcome.solved / 2);
        expect(outcome.riddlerReward).toBeCloseTo(gaussianSolveRateReward(outcome.solveRate!, { target: 0.5, sigma: 0.1 }), 12);
        expect(result.rewards.riddler).toBe(outcome.riddlerReward);
      }
      return outcome;
    });
    // The step line's band figures, from the outcomes by hand.
    const valid = outcomes.filter((outcome) => outcome.riddle !== null);
    // Seed 4's drafts both pass the critic (the engine decodes a seed alike run to run), so the solvers' books are checked above.
    expect(valid.length).toBeGreaterThan(0);
    const share = (predicate: (rate: number) => boolean) => (valid.length === 0 ? 0 : valid.filter((outcome) => predicate(outcome.solveRate!)).length / valid.length);
    const summary = environment.summarise!(results);
    expect(summary).toMatchObject({
      riddleEpisodes: 2,
      validRiddles: valid.length,
      bandShare: share((rate) => rate >= band.low && rate <= band.high),
      belowBand: share((rate) => rate < band.low),
      aboveBand: share((rate) => rate > band.high),
      solverRuns: 2 * valid.length,
    });
    // The curriculum moved on: the next draw's state counts both episodes and remembers the accepted riddles.
    const next = RiddleArtifactSchema.parse(environment.stores[RIDDLE_EPISODE_TYPE]!.snapshot().entries.at(-1)!.artifact);
    expect(next.episodeIndex).toBe(2);
    expect(next.recentRiddles).toEqual(valid.map((outcome) => outcome.riddle!.riddle));
  });
});
