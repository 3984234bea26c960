import { describe, expect, it } from "vitest";
import { loadEpisodeModule } from "../../../src/arena/pool/episode-module.js";
import type { JsonObject } from "../../../src/core/json.js";
import type { Rollout } from "../../../src/core/schemas/rollout.js";
import type { ScoringContext } from "../../../src/core/verifiers/verifier.js";
import { ScriptedInferenceClient } from "../../../src/inference/scripted-inference-client.js";
import type { DatasetEpisode } from "../../../src/tasks/dataset/dataset-episode.js";
import { loadEnvironment } from "../../../src/tasks/built-in-environments.js";
import { COMMON_WORDS } from "../../../src/tasks/letter-counts/common-words.js";
import { letterCountQuestions } from "../../../src/tasks/letter-counts/letter-count-questions.js";

const wordOf = (question: string) => /in the word "([a-z]+)"/.exec(question)?.[1] as string;
const letterOf = (question: string) => /the letter "([a-z])"/.exec(question)?.[1] as string;

function rollout(item: JsonObject, completion: string): Rollout {
  const step = { roleId: "student", prompt: [], completion: [{ role: "assistant", content: completion }], promptTokenIds: [], completionTokenIds: [], completionLogprobs: [] };
  return { id: "ep0", episodeType: "dataset", groupId: "g0", artifact: item, steps: [step as never], artifacts: {} };
}

describe("the letter-count questions", () => {
  const questions = letterCountQuestions();

  it("are the screened 1,925 questions, 448 held out, in the screen's clusters, each answer the letter's count", () => {
    expect(questions).toHaveLength(1925);
    const count = (split: string, cluster: string) => questions.filter((question) => question.split === split && question.cluster === cluster).length;
    // The screen's counts (benchmarks/RESULTS.md): mostly absent and single letters, a model saying "1" right under half the time.
    expect(["0", "1", "2", "3+"].map((cluster) => [count("train", cluster), count("test", cluster)])).toEqual([[626, 190], [616, 187], [218, 66], [17, 5]]);
    for (const question of questions) {
      const word = wordOf(question.question);
      expect(String([...word].filter((character) => character === letterOf(question.question)).length)).toBe(question.answer);
    }
    expect(new Set(questions.map((question) => wordOf(question.question)))).toEqual(new Set(COMMON_WORDS));
  });

  it("hold out whole words: no held-out word is ever trained on", () => {
    const heldOutWords = new Set(questions.filter((question) => question.split === "test").map((question) => wordOf(question.question)));
    const trainingWords = new Set(questions.filter((question) => question.split === "train").map((question) => wordOf(question.question)));
    expect([...heldOutWords].filter((word) => trainingWords.has(word))).toEqual([]);
    expect(heldOutWords.size / COMMON_WORDS.length).toBeCloseTo(0.25, 1);
  });
});

describe("the letter-counts environment", () => {
  it("is `--env letter-counts`: chat answers read tolerantly at temperature 0.7 in 64 tokens, the held-out words evaluated", async () => {
    const environment = await loadEnvironment("letter-counts");
    expect(environment.name).toBe("letter-counts");
    expect(environment.plan).toEqual([{ episodeType: "dataset", count: 8, groupSize: 8 }]);
    expect(environment.clusters?.names).toEqual(["0", "1", "2", "3+"]);
    const episode = (await loadEpisodeModule(environment.episodes))[0] as DatasetEpisode;
    expect(episode.roles[0]?.sampler).toEqual({ maxTokens: 64, temperature: 0.7 });
    const item = { question: 'How many times does the letter "l" appear in the word "balloon"?', answer: "2" };
    // SmolLM2's own phrasing, and one with a number after the answer: the tolerant reading takes the answer line first.
    expect((await episode.verifier.score(rollout(item, 'The letter "l" appears 2 times in the word "balloon".'), {} as ScoringContext)).rewards).toEqual({ student: 1 });
    expect((await episode.verifier.score(rollout(item, "Answer: 2\nThat is 1 less than 3."), {} as ScoringContext)).rewards).toEqual({ student: 1 });
    expect((await episode.verifier.score(rollout(item, "It appears 3 times."), {} as ScoringContext)).rewards).toEqual({ student: 0 });
    const client = new ScriptedInferenceClient({ rules: [{ when: () => true, reply: "Answer: 1" }] });
    const evaluation = await environment.evaluate?.(client);
    const heldOut = letterCountQuestions().filter((question) => question.split === "test");
    expect(evaluation?.n).toBe(300);
    expect(client.requests.map((request) => request.messages.at(-1)?.content)).toEqual(heldOut.slice(0, 300).map((question) => question.question));
    expect(evaluation?.heldOutAccuracy).toBeCloseTo(heldOut.slice(0, 300).filter((question) => question.answer === "1").length / 300, 12);
    expect(evaluation?.figures?.["strictAccuracy"]).toBe(evaluation?.heldOutAccuracy);
  });

  it("refuses an unknown option, naming it", async () => {
    await expect(loadEnvironment("letter-counts", { words: 3 })).rejects.toThrow(/environment\.words/);
  });
});
