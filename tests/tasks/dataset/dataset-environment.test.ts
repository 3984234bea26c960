import { describe, expect, it } from "vitest";
import { loadEpisodeModule } from "../../../src/arena/pool/episode-module.js";
import { toErrorRecord } from "../../../src/core/errors/index.js";
import type { JsonObject } from "../../../src/core/json.js";
import type { GenerationRequest } from "../../../src/core/inference-client.js";
import type { GenerateResult } from "../../../src/core/schemas/generate-result.js";
import type { Rollout } from "../../../src/core/schemas/rollout.js";
import type { ScoringContext } from "../../../src/core/verifiers/verifier.js";
import { ScriptedInferenceClient } from "../../../src/inference/scripted-inference-client.js";
import { createDatasetEnvironment } from "../../../src/tasks/dataset/dataset-environment.js";
import { createDatasetEpisodes, datasetEpisodeModule } from "../../../src/tasks/dataset/dataset-episodes.js";
import type { DatasetEpisode } from "../../../src/tasks/dataset/dataset-episode.js";
import { DatasetFunctionsUnavailableError } from "../../../src/tasks/dataset/errors/index.js";
import { loadEnvironment } from "../../../src/tasks/built-in-environments.js";

const rows = Array.from({ length: 40 }, (_, index) => ({ q: `${index + 10}+1=`, a: String(index + 11) }));
const context = {} as ScoringContext;

function rollout(item: JsonObject, completion: string): Rollout {
  const step = { roleId: "student", prompt: [], completion: [{ role: "assistant", content: completion }], promptTokenIds: [], completionTokenIds: [], completionLogprobs: [] };
  return { id: "ep0", episodeType: "dataset", groupId: "g0", artifact: item, steps: [step as never], artifacts: {} };
}

/** The rows the training store holds, in order. */
function storedRows(environment: Awaited<ReturnType<typeof createDatasetEnvironment>>): JsonObject[] {
  return (environment.stores["dataset"]?.snapshot().entries ?? []).map((entry) => entry.artifact as JsonObject);
}

/** A client that answers `a+1=` with a+1 when `right(a)`, else 0. */
function answeringClient(right: (first: number) => boolean): ScriptedInferenceClient {
  const reply = (request: GenerationRequest) => {
    const first = Number(String(request.messages.at(-1)?.content).split("+")[0]);
    return right(first) ? String(first + 1) : "0";
  };
  return new ScriptedInferenceClient({ rules: [{ when: () => true, reply }] });
}

/** The user prompts a client was asked, in order. */
function promptsAsked(client: ScriptedInferenceClient): string[] {
  return client.requests.map((request) => String(request.messages.at(-1)?.content));
}

async function episodeOf(environment: Awaited<ReturnType<typeof createDatasetEnvironment>>): Promise<DatasetEpisode> {
  return (await loadEpisodeModule(environment.episodes))[0] as DatasetEpisode;
}

function result(details: JsonObject | Error): GenerateResult {
  const failed = details instanceof Error;
  return {
    rollout: rollout({}, ""),
    rewards: failed ? {} : { student: 0 },
    outcome: failed ? { status: "failed", stage: "score", error: toErrorRecord(details) } : { status: "scored" },
    scoreDetails: failed ? {} : details,
    judgeCalls: 0,
    structuredOutputs: { calls: 0, validFirstTry: 0, resamples: 0, failures: 0 } as never,
    children: [],
  };
}

describe("createDatasetEnvironment", () => {
  it("maps the prompt and answer columns; by default rewards an exact match of the answer column's first line", async () => {
    const environment = await createDatasetEnvironment({ data: rows, prompt: "q", answer: "a", heldOut: 0 });
    expect(environment.plan).toEqual([{ episodeType: "dataset", count: 16, groupSize: 8 }]);
    expect(environment.evaluate).toBeUndefined();
    const episode = await episodeOf(environment);
    const item = rows[0] as JsonObject;
    expect(episode["prompt"](item)).toEqual([{ role: "user", content: "10+1=" }]);
    expect(await episode.verifier.score(rollout(item, " 11\nuser: 12+1="), context)).toEqual({ rewards: { student: 1 }, details: { scores: { exactMatch: 1 } } });
    expect(await episode.verifier.score(rollout(item, "12"), context)).toEqual({ rewards: { student: 0 }, details: { scores: { exactMatch: 0 } } });
  });

  it("declares clusters from a cluster column, and names the column of a row without one", async () => {
    const clustered = rows.map((row, index) => ({ ...row, kind: index % 10 === 9 ? "carry" : 1 }));
    const environment = await createDatasetEnvironment({ data: clustered, prompt: "q", answer: "a", cluster: "kind", heldOut: 0 });
    expect(environment.clusters!.episodeType).toBe("dataset");
    expect(environment.clusters!.names).toEqual(["1", "carry"]);
    expect(environment.clusters!.of(clustered[9] as JsonObject)).toBe("carry");
    expect((await createDatasetEnvironment({ data: rows, prompt: "q", answer: "a" })).clusters).toBeUndefined();
    const missing = clustered.map((row, index) => (index === 3 ? { q: row.q, a: row.a } : row));
    await expect(createDatasetEnvironment({ data: missing, prompt: "q", answer: "a", cluster: "kind" })).rejects.toThrow(/environment\.cluster.*row 4 has columns q, a/);
  });

  it("takes a prompt function (text or messages) and weighted reward functions", async () => {
    const environment = await createDatasetEnvironment({
      data: rows,
      prompt: (item) => [{ role: "system", content: "Add." }, { role: "user", content: String(item.q) }],
      rewards: [{ name: "right", weight: 2, fn: (completion, item) => (completion === item.a ? 1 : 0) }, { name: "short", weight: 0.5, fn: (completion) => (completion.length < 3 ? 1 : null) }],
    });
    const episode = await episodeOf(environment);
    expect(episode["prompt"](rows[1] as JsonObject)).toEqual([{ role: "system", content: "Add." }, { role: "user", content: "11+1=" }]);
    expect((await episode.verifier.score(rollout(rows[1] as JsonObject, "12"), context)).rewards).toEqual({ student: 2.5 });
    expect((await episode.verifier.score(rollout(rows[1] as JsonObject, "twelve"), context)).details).toEqual({ scores: { right: 0, short: null } });
  });

  it("takes a prompt column of messages, as TRL's conversational datasets hold them; refuses a row whose messages are malformed", async () => {
    const conversational = rows.map((row) => ({ prompt: [{ role: "system", content: "Add one." }, { role: "user", content: row.q }], answer: row.a }));
    const environment = await createDatasetEnvironment({ data: conversational, heldOut: 0 });
    expect((await episodeOf(environment))["prompt"](conversational[3] as JsonObject)).toEqual([{ role: "system", content: "Add one." }, { role: "user", content: "13+1=" }]);
    const malformed = [...conversational.slice(0, 2), { prompt: [{ role: "narrator", content: "x" }], answer: "1" }];
    await expect(createDatasetEnvironment({ data: malformed })).rejects.toThrow(/environment\.prompt.*as messages \[\{"role".*row 3 has \[\{"role":"narrator"/);
  });

  it("summarises each function's mean and std, and counts by name the rollouts a function's throw failed", async () => {
    const environment = await createDatasetEnvironment({ data: rows, prompt: "q", rewards: [{ name: "right", fn: () => 1 }, { name: "picky", fn: () => null }] });
    const episode = await episodeOf(environment);
    const thrower = await createDatasetEnvironment({ data: rows, prompt: "q", rewards: [{ name: "right", fn: () => 1 }, { name: "picky", fn: () => { throw new Error("boom"); } }] });
    const error = await (await episodeOf(thrower)).verifier.score(rollout(rows[0] as JsonObject, "11"), context).catch((caught: unknown) => caught as Error);
    expect(error).toMatchObject({ name: "RewardFunctionError", message: 'reward function "picky" threw: boom' });
    // The record names the function in a field; an episode error that merely reads like one is not counted.
    expect(toErrorRecord(error)).toEqual({ name: "RewardFunctionError", message: 'reward function "picky" threw: boom', details: { rewardFunction: "picky" } });
    const lookalike = new Error('reward function "picky" threw: boom');
    const results = [result({ scores: { right: 1, picky: 0 } }), result({ scores: { right: 0, picky: null } }), result(error as Error), result(lookalike)];
    expect(environment.summarise?.(results)).toEqual({ "right.mean": 0.5, "right.std": 0.5, "picky.mean": 0, "picky.std": 0, "picky.abstained": 1, "picky.threw": 1 });
    expect(episode.type).toBe("dataset");
  });

  it("holds out rows by a column and never stores them for training: the store holds exactly the other rows, the evaluation prompts exactly these; evaluateBy must name a function", async () => {
    const data = rows.map((row, index) => ({ ...row, split: index < 10 ? "test" : "train" }));
    const environment = await createDatasetEnvironment({ data, prompt: "q", answer: "a", heldOut: { column: "split", value: "test" } });
    expect(storedRows(environment)).toEqual(data.slice(10));
    // A model right on the even first operands only: held out are 10+1= … 19+1=, so 5 of 10.
    const client = answeringClient((first) => first % 2 === 0);
    // Five answers of two byte tokens, five of one ("0"): a median of 1.5, none cut off.
    expect(await environment.evaluate?.(client)).toEqual({ heldOutAccuracy: 0.5, n: 10, figures: { truncated: 0, medianCompletionTokens: 1.5 } });
    expect(promptsAsked(client)).toEqual(data.slice(0, 10).map((row) => row.q));
    await expect(createDatasetEnvironment({ data, prompt: "q", answer: "a", evaluateBy: "nope" })).rejects.toThrow(/environment\.evaluateBy/);
  });

  it("holds out a seeded fraction of the rows: stored and evaluated rows split the data, none in both", async () => {
    const environment = await createDatasetEnvironment({ data: rows, prompt: "q", answer: "a", heldOut: 0.25, seed: 3 });
    const client = answeringClient(() => true);
    const evaluation = await environment.evaluate?.(client);
    const stored = storedRows(environment).map((row) => row["q"]);
    const evaluated = promptsAsked(client);
    expect(evaluated.length).toBeGreaterThan(0);
    expect(evaluation).toEqual({ heldOutAccuracy: 1, n: evaluated.length, figures: { truncated: 0, medianCompletionTokens: 2 } });
    expect(stored.filter((question) => evaluated.includes(question as string))).toEqual([]);
    expect([...stored, ...evaluated].sort()).toEqual(rows.map((row) => row.q).sort());
  });

  it("refuses a missing prompt or answer column, naming the option and a row's columns", async () => {
    await expect(createDatasetEnvironment({ data: rows })).rejects.toThrow(/environment\.prompt.*row 1 has no "prompt" column \(its columns: q, a\)/);
    await expect(createDatasetEnvironment({ data: rows, prompt: "q" })).rejects.toThrow(/environment\.answer/);
  });

  it("is `--env dataset` with JSON options; a config's reward functions or a missing data file are refused", async () => {
    await expect(loadEnvironment("dataset", {})).rejects.toThrow(/environment\.data/);
    await expect(loadEnvironment("dataset", { data: rows, prompt: "q", answer: "a" })).resolves.toMatchObject({ name: "dataset" });
    await expect(loadEnvironment("dataset", { data: rows, prompt: "q", rewards: ["exact"] })).rejects.toThrow(/environment\.rewards\.0/);
  });

  it("says what to do when a thread without the functions (a pool worker) has no module to make them from", async () => {
    await expect(createDatasetEpisodes(datasetEpisodeModule({ name: "mine", key: "dataset-unknown", maxTokens: 4 }).options ?? null)).rejects.toThrow(DatasetFunctionsUnavailableError);
    await expect(createDatasetEpisodes({ name: "mine", key: "dataset-unknown", maxTokens: 4 })).rejects.toThrow(/--workers 0/);
  });
});
