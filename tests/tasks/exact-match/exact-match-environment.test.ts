import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { loadEpisodeModule } from "../../../src/arena/pool/episode-module.js";
import { fnv1aText } from "../../../src/core/hashing/fnv1a.js";
import type { JsonObject } from "../../../src/core/json.js";
import type { GenerationRequest } from "../../../src/core/inference-client.js";
import type { Rollout } from "../../../src/core/schemas/rollout.js";
import type { ScoringContext } from "../../../src/core/verifiers/verifier.js";
import type { Environment } from "../../../src/environments/environment.js";
import { ScriptedInferenceClient } from "../../../src/inference/scripted-inference-client.js";
import { loadEnvironment } from "../../../src/tasks/built-in-environments.js";
import type { DatasetEpisode } from "../../../src/tasks/dataset/dataset-episode.js";
import { createExactMatchEnvironment } from "../../../src/tasks/exact-match/exact-match-environment.js";
import { twoDigitQuestions } from "../../../src/tasks/exact-match/exact-match-questions.js";

const context = {} as ScoringContext;

function rollout(item: JsonObject, completion: string): Rollout {
  const step = { roleId: "student", prompt: [], completion: [{ role: "assistant", content: completion }], promptTokenIds: [], completionTokenIds: [], completionLogprobs: [] };
  return { id: "ep0", episodeType: "dataset", groupId: "g0", artifact: item, steps: [step as never], artifacts: {} };
}

async function episodeOf(environment: Environment): Promise<DatasetEpisode> {
  return (await loadEpisodeModule(environment.episodes))[0] as DatasetEpisode;
}

/** The rows the training store holds, in order. */
function storedRows(environment: Environment): JsonObject[] {
  return (environment.stores["dataset"]?.snapshot().entries ?? []).map((entry) => entry.artifact as JsonObject);
}

/** Answers greedily with `greedy(question)`; sampled, with `seed mod 4`. */
function answeringClient(greedy: (question: string) => string): ScriptedInferenceClient {
  const reply = (request: GenerationRequest) => (request.sampler.temperature === 0 ? greedy(String(request.messages.at(-1)?.content)) : String(request.sampler.seed % 4));
  return new ScriptedInferenceClient({ rules: [{ when: () => true, reply }] });
}

/** A completion as the bundled base writes one: the sum of an addition (then the next turn it makes up), 0 for a subtraction. */
const addsOnly = (question: string) => {
  const [a, b] = question.split("+").map((part) => Number.parseInt(part, 10));
  return question.includes("+") ? `${(a as number) + (b as number)}\nuser: 12+1=` : "0";
};

/** What held out the default questions before the exact-match environment became a preset of the dataset's: FNV-1a 32 of the text ≡ 0 (mod 10). */
const isOldHeldOut = (question: { question: string }) => fnv1aText(question.question) % 10 === 0;

describe("the exact-match environment (a preset of the dataset environment)", () => {
  let folder: string;

  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), "selfplay-exact-match-"));
  });

  it("holds out exactly the default questions it held out before, evaluates them in order, and stores every other one for training", async () => {
    const all = twoDigitQuestions();
    const heldOut = all.filter(isOldHeldOut);
    // As measured on the environment before it became a preset.
    expect(heldOut).toHaveLength(1638);
    expect(heldOut.slice(0, 5).map((question) => question.question)).toEqual(["10+11=", "10-19=", "10+22=", "10+31=", "10+33="]);
    const environment = await createExactMatchEnvironment({ evaluateQuestions: all.length });
    expect(storedRows(environment)).toEqual(all.filter((question) => !isOldHeldOut(question)));
    const client = answeringClient(addsOnly);
    const evaluation = await environment.evaluate!(client);
    expect(client.requests.map((request) => request.messages)).toEqual(heldOut.map((question) => [{ role: "user", content: question.question }]));
    expect(evaluation.n).toBe(1638);
    expect(evaluation.heldOutAccuracy).toBe(heldOut.filter((question) => question.question.includes("+")).length / 1638);
    // By default the first 300 of them.
    const sized = answeringClient(addsOnly);
    expect((await (await createExactMatchEnvironment()).evaluate!(sized)).n).toBe(300);
    expect(sized.requests.map((request) => request.messages.at(-1)?.content)).toEqual(heldOut.slice(0, 300).map((question) => question.question));
  });

  it("is the dataset environment under its own name: the question as the one user message, 8 tokens, 16 × 8 a step", async () => {
    const environment = await createExactMatchEnvironment();
    expect(environment.name).toBe("exact-match");
    expect(environment.plan).toEqual([{ episodeType: "dataset", count: 16, groupSize: 8 }]);
    const episode = await episodeOf(environment);
    expect(episode.type).toBe("dataset");
    expect(episode.roles.map((role) => [role.id, role.sampler.maxTokens])).toEqual([["student", 8]]);
    expect(episode["prompt"]({ question: "57-23=", answer: "34" })).toEqual([{ role: "user", content: "57-23=" }]);
    expect((await episodeOf(await createExactMatchEnvironment({ maxTokens: 3 }))).roles[0]?.sampler.maxTokens).toBe(3);
    // A pool worker makes it again from this preset's module and options, not from 16,200 rows of JSON.
    const options = { prompts: 2, evaluateQuestions: 5 };
    const { source } = (await createExactMatchEnvironment(options)).episodes.options as { source: { module: string; options: unknown } };
    expect(source).toEqual({ module: expect.stringMatching(/\/dist\/src\/tasks\/exact-match\/exact-match-environment\.js$/), options });
    const remade = (await import(source.module)) as { createEnvironment: (options: unknown) => Promise<Environment> };
    expect((await remade.createEnvironment(source.options)).plan).toEqual([{ episodeType: "dataset", count: 2, groupSize: 8 }]);
  });

  it("reads the first integer of the default data's answers, all of a data file's (answerFormat text), and records the expected answer", async () => {
    const item = { question: "57-23=", answer: "34", cluster: "subtract" };
    const integer = await episodeOf(await createExactMatchEnvironment());
    expect((await integer.verifier.score(rollout(item, " 34\nuser: 12+1="), context)).rewards).toEqual({ student: 1 });
    expect((await integer.verifier.score(rollout(item, "034"), context)).rewards).toEqual({ student: 1 });
    expect((await integer.verifier.score(rollout(item, "-34"), context)).rewards).toEqual({ student: 0 });
    expect(integer.finalize({ response: { text: " 34" } } as never, item)).toEqual({ answer: " 34", expected: "34" });
    const data = join(folder, "words.jsonl");
    await writeFile(data, '{"question": "capital of France?", "answer": "Paris"}\n{"question": "3+4=", "answer": 7}\n');
    const text = await episodeOf(await createExactMatchEnvironment({ data, heldOut: data }));
    expect((await text.verifier.score(rollout({ question: "capital of France?", answer: "Paris" }, " Paris \n"), context)).rewards).toEqual({ student: 1 });
    expect((await text.verifier.score(rollout({ question: "3+4=", answer: "7" }, "7 apples"), context)).rewards).toEqual({ student: 0 });
    const asInteger = await episodeOf(await createExactMatchEnvironment({ data, heldOut: data, answerFormat: "integer" }));
    expect((await asInteger.verifier.score(rollout({ question: "3+4=", answer: "7" }, "7 apples"), context)).rewards).toEqual({ student: 1 });
  });

  it("clusters the default questions by operation, carry/borrow and result size, from the questions it trains on", async () => {
    const clusters = (await createExactMatchEnvironment()).clusters!;
    expect(clusters.episodeType).toBe("dataset");
    expect(clusters.names).toEqual(["add", "add-carry", "add-carry-hundreds", "add-hundreds", "subtract", "subtract-borrow", "subtract-negative"]);
    expect(clusters.of({ question: "17+25=", answer: "42", cluster: "add-carry" })).toBe("add-carry");
    const clustered = join(folder, "clustered.jsonl");
    await writeFile(clustered, '{"question": "9+1=", "answer": "10", "cluster": "carry"}\n{"question": "3+1=", "answer": 4, "cluster": "plain"}\n{"question": "19+1=", "answer": "20", "cluster": 7}\n');
    expect((await createExactMatchEnvironment({ data: clustered, heldOut: clustered })).clusters!.names).toEqual(["7", "carry", "plain"]);
    const unclustered = join(folder, "unclustered.jsonl");
    await writeFile(unclustered, '{"question": "9+1=", "answer": "10"}\n');
    expect((await createExactMatchEnvironment({ data: unclustered, heldOut: unclustered })).clusters).toBeUndefined();
  });

  it("with a heldOut file trains on every question of data and evaluates the file's, greedy and pass@k (seed + i·k + s)", async () => {
    const data = join(folder, "train.jsonl");
    await writeFile(data, ["1+1=", "2+2=", "3+3="].map((question, index) => JSON.stringify({ question, answer: 2 * (index + 1) })).join("\n"));
    const heldOut = join(folder, "held-out.jsonl");
    await writeFile(heldOut, ["0", "1", "2", "3", "9"].map((answer, index) => JSON.stringify({ question: `q${index}=`, answer })).join("\n"));
    const environment = await createExactMatchEnvironment({ data, heldOut });
    expect(storedRows(environment)).toEqual([{ question: "1+1=", answer: "2" }, { question: "2+2=", answer: "4" }, { question: "3+3=", answer: "6" }]);
    expect(environment.evaluatesPassAtK).toBe(true);
    // Greedy "0" solves q0; sample seeds 0…9 answer 0,1 | 2,3 | 0,1 | 2,3 | 0,1, so q0 and q3 within 2.
    const client = answeringClient(() => "0");
    expect(await environment.evaluate!(client, { samples: 2 })).toEqual({ heldOutAccuracy: 1 / 5, n: 5, figures: { truncated: 0, medianCompletionTokens: 1 }, passAtK: { k: 2, value: 2 / 5 } });
    expect(client.requests.slice(5).map((request) => [request.messages.at(-1)?.content, request.sampler.temperature, request.sampler.seed, request.sampler.maxTokens])).toEqual(
      Array.from({ length: 10 }, (_, index) => [`q${index >> 1}=`, 1, index, 8]),
    );
    // Seed 1 moves every sample by one: 1,2 | 3,0 | 1,2 | 3,0 | 1,2 solve q2 and q3, no longer q0.
    const shifted = answeringClient(() => "0");
    expect((await environment.evaluate!(shifted, { samples: 2, seed: 1 })).passAtK).toEqual({ k: 2, value: 2 / 5 });
    expect(shifted.requests.slice(5).map((request) => request.sampler.seed)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    // evaluateQuestions cuts the file's questions too.
    expect((await (await createExactMatchEnvironment({ data, heldOut, evaluateQuestions: 2 })).evaluate!(answeringClient(() => "0"))).n).toBe(2);
  });

  it("summarises a step as the dataset does: exactMatch's mean and std", async () => {
    const environment = await createExactMatchEnvironment();
    const result = (score: number) => ({ outcome: { status: "scored" }, scoreDetails: { scores: { exactMatch: score } } }) as never;
    expect(environment.summarise?.([result(1), result(0), result(0), result(0)])).toEqual({ "exactMatch.mean": 0.25, "exactMatch.std": Math.sqrt(0.1875) });
  });

  it("names the option, file and line of a bad question, and a misspelt option with the nearest valid one", async () => {
    const bad = join(folder, "bad.jsonl");
    await writeFile(bad, '{"question": "1+1=", "answer": "2"}\n{"question": "2+2="}\n');
    await expect(createExactMatchEnvironment({ data: bad })).rejects.toThrow(/^environment\.data \(.*bad\.jsonl:2\)/);
    await expect(createExactMatchEnvironment({ heldOut: bad })).rejects.toThrow(/^environment\.heldOut \(.*bad\.jsonl:2\)/);
    await expect(createExactMatchEnvironment({ heldOut: join(folder, "missing.jsonl") })).rejects.toThrow(/^environment\.heldOut: got .*missing\.jsonl.*; expected a readable JSONL file .*ENOENT/);
    await expect(createExactMatchEnvironment({ answerFormat: "number" })).rejects.toThrow(/^environment\.answerFormat/);
    await expect(loadEnvironment("exact-match", { prompt: 4 })).rejects.toThrow(/prompt.*prompts/);
    await expect(loadEnvironment("exact-match", { data: bad })).rejects.toThrow(/environment\.data \(.*bad\.jsonl:2\)/);
  });
});
