import { describe, expect, it } from "vitest";
import { Arena } from "../../../src/arena/arena.js";
import { InvalidInputError } from "../../../src/core/errors/index.js";
import type { GenerationRequest } from "../../../src/core/inference-client.js";
import type { GenerateResult } from "../../../src/core/schemas/generate-result.js";
import { byteVocabularyText } from "../../../src/frontier/labelling/byte-vocabulary-text.js";
import { labelTrajectories } from "../../../src/frontier/labelling/label-trajectories.js";
import { MultiTurnEpisodeError } from "../../../src/frontier/errors/index.js";
import type { LabelledEpisodes } from "../../../src/frontier/labelling/labelled-episodes.js";
import { prmTrajectories, type PrmTrajectory } from "../../../src/frontier/labelling/prm-trajectory.js";
import { ArithmeticSolverEpisode } from "../../../src/tasks/arithmetic/arithmetic-solver-episode.js";
import { ScriptedInferenceClient } from "../../../src/inference/scripted-inference-client.js";

const solver = new ArithmeticSolverEpisode();
const EPISODES: LabelledEpisodes = {
  byType: { "arithmetic-solve": { roleIds: ["solver"], verifier: solver.verifier } },
  clusterOf: (rollout) => (rollout.episodeType === "arithmetic-solve" ? String(rollout.artifacts.cluster) : undefined),
};
const verifierFor = () => solver.verifier;

/** Solver rollouts of `23+45=` (answer 68) whose replies are `replies`, in order. */
async function solverResults(replies: readonly string[]): Promise<GenerateResult[]> {
  let call = 0;
  const client = new ScriptedInferenceClient({ rules: [{ when: /23\+45=/, reply: () => replies[call++] as string }] });
  const arena = new Arena({ client, seed: 1, concurrency: 1 }).register(solver);
  const artifact = { problem: "23+45", answer: "68", cluster: "add-2x2-no-carry" };
  return arena.generateRollouts(replies.map(() => ({ episodeType: "arithmetic-solve", artifact })));
}

/**
 * The continuation engine of the scripted environment: what it writes after
 * each prefix, in turn (the requests of one prefix are consecutive).
 */
function continuationClient(byPrefix: Record<string, readonly string[]>) {
  const calls = new Map<string, number>();
  const requests: GenerationRequest[] = [];
  const client = new ScriptedInferenceClient({
    rules: [
      {
        when: () => true,
        reply: (request) => {
          requests.push(request);
          const prefix = byteVocabularyText(request.prefixTokenIds ?? []);
          const index = calls.get(prefix) ?? 0;
          calls.set(prefix, index + 1);
          const replies = byPrefix[prefix];
          if (!replies) throw new Error(`no continuation scripted after "${prefix}"`);
          return replies[index % replies.length] as string;
        },
      },
    ],
  });
  return { client, requests };
}

describe("labelTrajectories", () => {
  it("labels every prefix with the trajectory's outcome when no continuations are asked for", async () => {
    const trajectories = prmTrajectories(await solverResults(["68", "61"]), EPISODES, "test");
    const { examples, continuations } = await labelTrajectories(trajectories, { rollouts: 0, chunk: 1, detokenize: byteVocabularyText });
    expect(continuations).toBe(0);
    const state = (prefix: string, label: number) => ({ task: "23+45=", cluster: "add-2x2-no-carry", prefix, label });
    expect(examples).toEqual([state("", 1), state("6", 1), state("68", 1), state("", 0), state("6", 0), state("61", 0)]);
  });

  it("labels a partial solution with the success share of K continuations (hand-computed)", async () => {
    const trajectories = prmTrajectories(await solverResults(["61"]), EPISODES, "test");
    // After "": 68 ✓, 61 ✗, 68 ✓, 5 ✗ → 2/4. After "6": 8 ✓, 8 ✓, 9 ✗, 8 ✓ → 3/4.
    const { client, requests } = continuationClient({ "": ["68", "61", "68", "5"], "6": ["8", "8", "9", "8"] });
    const { examples, continuations } = await labelTrajectories(trajectories, { rollouts: 4, chunk: 1, detokenize: byteVocabularyText, client, verifierFor, seed: 7 });
    expect(continuations).toBe(8);
    expect(examples.map(({ prefix, label }) => [prefix, label])).toEqual([["", 0.5], ["6", 0.75], ["61", 0]]);
    // Each continuation resumes the Step: its prompt, its sampler with a fresh seed, the remaining token budget, the prefix's tokens.
    const step = trajectories[0]!.steps[0]!;
    expect(requests.map((request) => request.messages)).toEqual(Array(8).fill(step.prompt));
    expect(requests.map((request) => request.prefixTokenIds)).toEqual([...Array(4).fill([]), ...Array(4).fill(step.completionTokenIds.slice(0, 1))]);
    expect(requests.map((request) => request.sampler.maxTokens)).toEqual([...Array(4).fill(8), ...Array(4).fill(7)]);
    expect(new Set(requests.map((request) => request.sampler.seed)).size).toBe(8);
    expect(requests.every((request) => request.sampler.temperature === step.sampler.temperature)).toBe(true);
    // Seeded: the same labels and the same seeds again.
    const again = continuationClient({ "": ["68", "61", "68", "5"], "6": ["8", "8", "9", "8"] });
    await labelTrajectories(trajectories, { rollouts: 4, chunk: 1, detokenize: byteVocabularyText, client: again.client, verifierFor, seed: 7 });
    expect(again.requests.map((request) => request.sampler.seed)).toEqual(requests.map((request) => request.sampler.seed));
  });

  it("cuts prefixes every `chunk` tokens and drops one that already reads as the whole solution", async () => {
    const [trajectory] = prmTrajectories(await solverResults(["123"]), EPISODES, "test") as [PrmTrajectory];
    const byTwo = await labelTrajectories([trajectory], { rollouts: 0, chunk: 2, detokenize: byteVocabularyText });
    expect(byTwo.examples.map((example) => example.prefix)).toEqual(["", "12", "123"]);
    // An end-of-sequence token (id 2) writes no text: "123" before it is the terminal state, not a prefix of it.
    const ended: PrmTrajectory = { ...trajectory, steps: [{ ...trajectory.steps[0]!, completionTokenIds: [...trajectory.steps[0]!.completionTokenIds, 2], completionLogprobs: [-1, -1, -1, -1] }] };
    const byOne = await labelTrajectories([ended], { rollouts: 0, chunk: 1, detokenize: byteVocabularyText });
    expect(byOne.examples.map((example) => example.prefix)).toEqual(["", "1", "12", "123"]);
  });

  it("refuses what it cannot continue, naming the rollout and the fix", async () => {
    const [trajectory] = prmTrajectories(await solverResults(["68"]), EPISODES, "runs/a/rollouts.jsonl:3") as [PrmTrajectory];
    const { client } = continuationClient({});
    const twoSteps = { ...trajectory, rollout: { ...trajectory.rollout, steps: [trajectory.steps[0]!, trajectory.steps[0]!] } };
    const multiTurn = labelTrajectories([twoSteps], { rollouts: 2, chunk: 1, detokenize: byteVocabularyText, client, verifierFor });
    await expect(multiTurn).rejects.toThrow(MultiTurnEpisodeError);
    await expect(multiTurn).rejects.toThrow(/runs\/a\/rollouts\.jsonl:3 ep0: arithmetic-solve: got "2 Steps and 0 sub-episodes"; .*arithmetic-solve is multi-turn: label it with --rollouts 0/);
    // A rollout that ran sub-episodes cannot be re-scored without running them again.
    await expect(labelTrajectories([{ ...trajectory, subEpisodes: 4 }], { rollouts: 2, chunk: 1, detokenize: byteVocabularyText, client, verifierFor })).rejects.toThrow(/1 Steps and 4 sub-episodes/);
    // A verifier that scores sub-episodes (a proposer paid by its solvers) or asks a judge cannot re-score a continuation alone.
    const bySubEpisodes = { score: async (_rollout: unknown, context: { children: readonly unknown[] }) => ({ rewards: { solver: context.children.length } }) };
    const scripted = continuationClient({ "": ["68"], "6": ["8"] }).client;
    const readsChildren = labelTrajectories([trajectory], { rollouts: 1, chunk: 1, detokenize: byteVocabularyText, client: scripted, verifierFor: () => bySubEpisodes });
    await expect(readsChildren).rejects.toThrow(MultiTurnEpisodeError);
    await expect(readsChildren).rejects.toThrow(/ep0: arithmetic-solve: got "a verifier that scores sub-episodes"; .*label it with --rollouts 0/);
    const byJudge = { score: async (_rollout: unknown, context: { judge: (messages: never[]) => Promise<string> }) => ({ rewards: { solver: Number(await context.judge([])) } }) };
    const asksJudge = labelTrajectories([trajectory], { rollouts: 1, chunk: 1, detokenize: byteVocabularyText, client: continuationClient({ "": ["68"], "6": ["8"] }).client, verifierFor: () => byJudge });
    await expect(asksJudge).rejects.toThrow(/verifier: expected a verifier that scores without a judge .*label it with --rollouts 0/);
    // Outcome labels need no continuation: any episode.
    expect((await labelTrajectories([twoSteps], { rollouts: 0, chunk: 1, detokenize: byteVocabularyText })).examples).toHaveLength(3);
    const constrained = { ...trajectory, steps: [{ ...trajectory.steps[0]!, constrained: true }] };
    await expect(labelTrajectories([constrained], { rollouts: 2, chunk: 1, detokenize: byteVocabularyText, client, verifierFor })).rejects.toThrow(/constrained: .*--rollouts 0/);
    await expect(labelTrajectories([trajectory], { rollouts: 2, chunk: 1, detokenize: byteVocabularyText, verifierFor })).rejects.toThrow(InvalidInputError);
    await expect(labelTrajectories([trajectory], { rollouts: 0, chunk: 0, detokenize: byteVocabularyText })).rejects.toThrow(/chunk: got 0; expected an integer ≥ 1/);
    await expect(labelTrajectories([trajectory], { rollouts: -1, chunk: 1, detokenize: byteVocabularyText })).rejects.toThrow(/rollouts: got -1/);
    const plain = new ScriptedInferenceClient({ rules: [], capabilities: { prefixTokens: false } });
    await expect(labelTrajectories([trajectory], { rollouts: 2, chunk: 1, detokenize: byteVocabularyText, client: plain, verifierFor })).rejects.toThrow(/prefixTokens/);
  });
});

describe("prmTrajectories", () => {
  it("takes scored solver rollouts anywhere in the tree, with the task as the solver saw it", async () => {
    const results = await solverResults(["68"]);
    const nested: GenerateResult = { ...results[0]!, rollout: { ...results[0]!.rollout, episodeType: "arithmetic-propose", id: "ep9" }, rewards: { proposer: 0.3 }, children: results };
    const failed: GenerateResult = { ...results[0]!, outcome: { status: "failed", stage: "score", error: { name: "Error", message: "x" } } };
    const trajectories = prmTrajectories([nested, failed], EPISODES, "file:1");
    expect(trajectories.map((trajectory) => [trajectory.source, trajectory.task, trajectory.cluster, trajectory.outcome])).toEqual([["file:1 ep0", "23+45=", "add-2x2-no-carry", 1]]);
  });

  it("labels a positive reward 1 and any other 0, and refuses a role with Steps and no reward", async () => {
    const [result] = await solverResults(["68"]);
    const outcomes = [2, 0.25, 0, -1].map((reward) => prmTrajectories([{ ...result!, rewards: { solver: reward } }], EPISODES, "file:4")[0]?.outcome);
    expect(outcomes).toEqual([1, 1, 0, 0]);
    expect(() => prmTrajectories([{ ...result!, rewards: {} }], EPISODES, "file:4")).toThrow(/file:4 ep0: rewards\.solver: expected a reward for every role with Steps/);
  });

  it("clusters sub-episodes by their clustered parent, and by episode type without clusters", async () => {
    const results = await solverResults(["68"]);
    const parent: GenerateResult = { ...results[0]!, rollout: { ...results[0]!.rollout, episodeType: "propose", artifact: { family: "sums" }, id: "ep9" }, rewards: { proposer: 0.3 }, children: results };
    const clustered: LabelledEpisodes = { byType: EPISODES.byType, clusterOf: (rollout) => (rollout.episodeType === "propose" ? "sums" : undefined) };
    expect(prmTrajectories([parent], clustered, "f").map((trajectory) => trajectory.cluster)).toEqual(["sums"]);
    const unclustered: LabelledEpisodes = { byType: EPISODES.byType, clusterOf: () => undefined };
    expect(prmTrajectories(results, unclustered, "f").map((trajectory) => trajectory.cluster)).toEqual(["arithmetic-solve"]);
    expect(() => prmTrajectories(results, { byType: EPISODES.byType, clusterOf: () => "" }, "f")).toThrow(/f ep0: cluster: got ""/);
  });
});
