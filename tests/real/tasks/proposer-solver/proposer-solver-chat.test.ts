import { describe, expect, it } from "vitest";
import { Arena } from "../../../../src/arena/arena.js";
import { extractAnswer } from "../../../../src/core/answers/answer-extractors.js";
import { answersMatch } from "../../../../src/core/answers/answers-match.js";
import { gaussianSolveRateReward } from "../../../../src/core/rewards/gaussian-solve-rate-reward.js";
import { DEFAULT_SAMPLER } from "../../../../src/core/schemas/sampler-settings.js";
import type { Step } from "../../../../src/core/schemas/step.js";
import { heldOutExamples } from "../../../../src/tasks/arithmetic/held-out-examples.js";
import { JSON_PROPOSAL_GRAMMAR, parseJsonProposal } from "../../../../src/tasks/proposer-solver/json-proposal.js";
import { createProposerSolverEnvironment } from "../../../../src/tasks/proposer-solver/proposer-solver-environment.js";
import { createProposerSolverEpisodes } from "../../../../src/tasks/proposer-solver/proposer-solver-episodes.js";
import type { SolverEpisode } from "../../../../src/tasks/proposer-solver/solver-episode.js";
import { REAL_MODEL_SKIP_REASON, realModelAvailable } from "../../real-model.js";
import { smollm2ChatTemplate } from "../../smollm2-chat-template.js";
import { useRealModelClient } from "../../use-real-model-client.js";
import { useRealModelVocabulary } from "../../use-real-model-vocabulary.js";

/** The chat forms benchmarks/configs/proposer-solver-smollm2.json trains with, at a test's sizes. */
const CHAT = {
  proposal: "json",
  proposerMaxTokens: 24,
  solverPrompt: "words",
  solverSystem: "Solve the arithmetic problem. Reply with the number only.",
  solverMaxTokens: 32,
  extractor: "tolerant",
} as const;

/** Every recorded Step's bookkeeping: the client's version, one finite logprob a completion token. */
function expectRecorded(step: Step): void {
  expect(step.policyVersion).toBe(0);
  expect(step.completionTokenIds.length).toBeGreaterThan(0);
  expect(step.completionLogprobs).toHaveLength(step.completionTokenIds.length);
  for (const logprob of step.completionLogprobs) expect(Number.isFinite(logprob) && logprob <= 0).toBe(true);
}

// About 30 s on one thread of an idle machine: 4 proposals (~15 tokens each), up to 8 worded answers (≤ 32 tokens) and 4 held-out questions.
describe(`proposer/solver in a chat model's forms on SmolLM2${REAL_MODEL_SKIP_REASON}`, () => {
  const client = useRealModelClient({ sequences: 2, contextSize: 512 });
  const vocabulary = useRealModelVocabulary();

  it.skipIf(!realModelAvailable)("proposes under the JSON grammar, executes or counts invalid, and pays the proposer the Gaussian of its solvers' answers as the extractor reads them", async () => {
    const environment = createProposerSolverEnvironment({ ...CHAT, prompts: 2, groupSize: 2, solvers: 2, evaluateProblems: 4 });
    const arena = new Arena({ client: client(), seed: 3, concurrency: 2, samplerDefaults: { temperature: 0.7 } });
    const episodes = createProposerSolverEpisodes(environment.episodes.options);
    for (const episode of episodes) arena.register(episode, environment.stores[episode.type]);
    const results = await arena.generateRollouts(arena.getBatch(environment.plan));
    expect(results).toHaveLength(4);
    for (const result of results) {
      const [proposal] = result.rollout.steps;
      expect(result.rollout.steps).toHaveLength(1);
      expectRecorded(proposal!);
      // Under the grammar, in SmolLM2's template.
      expect([proposal!.constrained, proposal!.constraint]).toEqual([true, JSON_PROPOSAL_GRAMMAR]);
      const [system, user] = proposal!.prompt;
      expect(vocabulary().detokenize(proposal!.promptTokenIds as never[], true)).toBe(smollm2ChatTemplate([system!, user!]));
      // A proposal the executor runs is a problem; only one cut short by its budget is not (the grammar allows nothing else).
      const text = proposal!.completion[0]!.content;
      const problem = parseJsonProposal(text);
      expect(result.rollout.artifacts.valid).toBe(problem !== undefined);
      if (problem === undefined) {
        expect(proposal!.finishReason).toBe("length");
        expect(result.children).toEqual([]);
        expect(result.rewards.proposer).toBe(-1);
        continue;
      }
      expect(text.startsWith('{"problem": "')).toBe(true);
      expect(result.rollout.artifacts).toMatchObject({ problem: problem.text, answer: problem.answer });
      // Each solver asked in words, its answer read by the tolerant extractor and matched as a number.
      expect(result.children).toHaveLength(2);
      let passes = 0;
      for (const child of result.children) {
        const [answer] = child.rollout.steps;
        expectRecorded(answer!);
        expect(answer!.prompt).toEqual([{ role: "system", content: CHAT.solverSystem }, { role: "user", content: `What is ${problem.text.replace(/([-+*])/g, " $1 ")}?` }]);
        const read = extractAnswer("tolerant", answer!.completion[0]!.content);
        expect(child.rollout.artifacts).toEqual({ answer: read ?? null, expected: String(problem.answer) });
        const solved = answersMatch(read, String(problem.answer));
        expect(child.rewards.solver).toBe(solved ? 1 : 0);
        if (solved) passes++;
      }
      expect(result.rewards.proposer).toBeCloseTo(gaussianSolveRateReward(passes / 2, { target: 0.5, sigma: 0.2 }), 12);
    }
    // The step's figures are the rollouts' own.
    const valid = results.filter((result) => result.rollout.artifacts.valid === true);
    const answers = valid.flatMap((result) => result.children);
    expect(environment.summarise!(results)).toEqual({
      validProposals: valid.length / 4,
      solveRate: answers.filter((child) => child.rewards.solver === 1).length / Math.max(answers.length, 1),
      distinctProblems: new Set(valid.map((result) => result.rollout.artifacts.problem)).size,
      validProposerReward: valid.reduce((sum, result) => sum + result.rewards.proposer!, 0) / Math.max(valid.length, 1),
    });
    // The records the update would train: one a proposal, one an answer, each at the version that sampled it.
    const batch = arena.buildTrainingBatch(results, arena.assignCredit(results), 0);
    expect(batch.records).toHaveLength(4 + answers.length);
    expect(new Set(batch.records.map((record) => record.policyVersion))).toEqual(new Set([0]));

    // The held-out evaluation asks greedily what a solver's Step asks and reads it the same way.
    const solver = episodes[1] as SolverEpisode;
    const evaluation = await environment.evaluate!(client());
    const examples = heldOutExamples(4);
    const greedy = await client().generate(examples.map((example) => ({ messages: solver.question(example.problem), sampler: { ...DEFAULT_SAMPLER, temperature: 0, maxTokens: CHAT.solverMaxTokens, seed: 0 }, constraint: null })));
    const right = greedy.filter((output, index) => answersMatch(extractAnswer("tolerant", output.text), examples[index]!.answer)).length;
    expect(evaluation).toMatchObject({ heldOutAccuracy: right / 4, n: 4 });
  });
});
