import { describe, expect, it } from "vitest";
import { loadEpisodeModule } from "../../../src/arena/pool/episode-module.js";
import type { JsonObject } from "../../../src/core/json.js";
import type { GenerationRequest } from "../../../src/core/inference-client.js";
import type { Rollout } from "../../../src/core/schemas/rollout.js";
import type { ScoringContext } from "../../../src/core/verifiers/verifier.js";
import { ScriptedInferenceClient } from "../../../src/inference/scripted-inference-client.js";
import { createDatasetEnvironment } from "../../../src/tasks/dataset/dataset-environment.js";
import type { DatasetEpisode } from "../../../src/tasks/dataset/dataset-episode.js";

// Sums asked in words; the first ten rows are held out.
const rows = Array.from({ length: 30 }, (_, index) => ({ question: `What is ${index} plus 2?`, answer: String(index + 2), split: index < 10 ? "test" : "train" }));
const heldOut = { column: "split", value: "test" };
const context = {} as ScoringContext;

function rollout(item: JsonObject, completion: string): Rollout {
  const step = { roleId: "student", prompt: [], completion: [{ role: "assistant", content: completion }], promptTokenIds: [], completionTokenIds: [], completionLogprobs: [] };
  return { id: "ep0", episodeType: "dataset", groupId: "g0", artifact: item, steps: [step as never], artifacts: {} };
}

async function episodeOf(environment: Awaited<ReturnType<typeof createDatasetEnvironment>>): Promise<DatasetEpisode> {
  return (await loadEpisodeModule(environment.episodes))[0] as DatasetEpisode;
}

/** The held-out row a request asks about. */
function indexOf(request: GenerationRequest): number {
  return Number(/What is (\d+)/.exec(String(request.messages.at(-1)?.content))?.[1]);
}

describe("the dataset environment for a chat model", () => {
  it("puts the system prompt first, unless a row's messages bring their own", async () => {
    const environment = await createDatasetEnvironment({ data: rows, prompt: "question", system: "Solve it. End with 'Answer: <number>'.", heldOut });
    const episode = await episodeOf(environment);
    expect(episode["prompt"](rows[0] as JsonObject)).toEqual([
      { role: "system", content: "Solve it. End with 'Answer: <number>'." },
      { role: "user", content: "What is 0 plus 2?" },
    ]);
    const own = await createDatasetEnvironment({ data: [{ prompt: [{ role: "system", content: "Mine." }, { role: "user", content: "1+1?" }], answer: "2" }], system: "Theirs.", heldOut: 0 });
    expect((await episodeOf(own))["prompt"]({ prompt: [{ role: "system", content: "Mine." }, { role: "user", content: "1+1?" }] })).toEqual([
      { role: "system", content: "Mine." },
      { role: "user", content: "1+1?" },
    ]);
  });

  it("puts worked examples before the row, as earlier turns, after the system prompt", async () => {
    const fewShot = [{ user: "What is 1 plus 2?", assistant: "1 + 2 = 3.\nAnswer: 3" }];
    const environment = await createDatasetEnvironment({ data: rows, prompt: "question", system: "Be brief.", fewShot, heldOut });
    expect((await episodeOf(environment))["prompt"](rows[0] as JsonObject)).toEqual([
      { role: "system", content: "Be brief." },
      { role: "user", content: "What is 1 plus 2?" },
      { role: "assistant", content: "1 + 2 = 3.\nAnswer: 3" },
      { role: "user", content: "What is 0 plus 2?" },
    ]);
    const bare = await createDatasetEnvironment({ data: rows, prompt: "question", fewShot, heldOut });
    expect(((await episodeOf(bare))["prompt"](rows[0] as JsonObject)).map((message) => message.role)).toEqual(["user", "assistant", "user"]);
    await expect(createDatasetEnvironment({ data: rows, prompt: "question", fewShot: [{ user: "q" }] as never, heldOut })).rejects.toThrow(/environment\.fewShot\.0\.assistant/);
  });

  it("reads the answer with the chosen extractor, and pays the format reward as its own weighted function", async () => {
    const environment = await createDatasetEnvironment({ data: rows, prompt: "question", extractor: "tolerant", format: { extractor: "answer-line", weight: 0.25 }, heldOut });
    const episode = await episodeOf(environment);
    const item = rows[10] as JsonObject;
    const score = async (completion: string) => (await episode.verifier.score(rollout(item, completion), context)) as { rewards: { student: number }; details: { scores: Record<string, number> } };
    // Right in words, no answer line: exactMatch only.
    expect(await score("10 plus 2 is 12.")).toMatchObject({ rewards: { student: 1 }, details: { scores: { exactMatch: 1, format: 0 } } });
    // In the asked form and right: both.
    expect(await score("10 + 2 = 12\nAnswer: 12")).toMatchObject({ rewards: { student: 1.25 }, details: { scores: { exactMatch: 1, format: 1 } } });
    // In the asked form and wrong: the format reward alone.
    expect(await score("Answer: 13 apples.")).toMatchObject({ rewards: { student: 0.25 }, details: { scores: { exactMatch: 0, format: 1 } } });
    // The default reads the first line: the same reply scores 0 there.
    const firstLine = await episodeOf(await createDatasetEnvironment({ data: rows, prompt: "question", heldOut }));
    expect((await firstLine.verifier.score(rollout(item, "10 plus 2 is 12."), context)).rewards).toEqual({ student: 0 });
    // Weight 0, the default: the form is measured (strictAccuracy), not paid; no format function on the step line.
    const measured = await episodeOf(await createDatasetEnvironment({ data: rows, prompt: "question", extractor: "tolerant", format: { extractor: "answer-line" }, heldOut }));
    expect(await measured.verifier.score(rollout(item, "10 + 2 = 12\nAnswer: 12"), context)).toMatchObject({ rewards: { student: 1 }, details: { scores: { exactMatch: 1 } } });
    expect(Object.keys(((await measured.verifier.score(rollout(item, "Answer: 12"), context)).details as { scores: object }).scores)).toEqual(["exactMatch"]);
  });

  it("samples the student and pass@k at its temperature; the run's when it has none", async () => {
    const environment = await createDatasetEnvironment({ data: rows, prompt: "question", temperature: 0.7, heldOut });
    expect((await episodeOf(environment)).roles[0]?.sampler.temperature).toBe(0.7);
    const client = new ScriptedInferenceClient({ rules: [{ when: () => true, reply: "2" }] });
    await environment.evaluate?.(client, { samples: 2 });
    expect([...new Set(client.requests.map((request) => request.sampler.temperature))]).toEqual([0, 0.7]);
    const plain = await createDatasetEnvironment({ data: rows, prompt: "question", heldOut });
    expect((await episodeOf(plain)).roles[0]?.sampler.temperature).toBeUndefined();
  });

  it("asks the engine for its context size, or leaves the file's", async () => {
    expect((await createDatasetEnvironment({ data: rows, prompt: "question", contextSize: 512, heldOut })).contextSize).toBe(512);
    expect((await createDatasetEnvironment({ data: rows, prompt: "question", heldOut })).contextSize).toBeUndefined();
  });

  it("refuses a format without its extractor, a negative weight or a file format in its place, naming the field", async () => {
    const refusal = (format: unknown) => createDatasetEnvironment({ data: rows, prompt: "question", format: format as never, heldOut });
    await expect(refusal({ weight: 1 })).rejects.toThrow(/^environment\.format\.extractor: expected an answer extractor: boxed, answer-line, /);
    await expect(refusal({ extractor: "answer-line", weight: -1 })).rejects.toThrow(/^environment\.format\.weight: got -1; expected .*>=0/);
    await expect(refusal({ extractor: "answer-lines" })).rejects.toThrow(/^environment\.format\.extractor: got "answer-lines"/);
    await expect(refusal("csv")).rejects.toThrow(/^environment\.format: got "csv"; expected \{"extractor": .* \(a data file's format is `dataFormat`\)$/);
    await expect(refusal({ extractor: "answer-line", wieght: 1 })).rejects.toThrow(/environment\.format\.wieght.*weight/);
    await expect(createDatasetEnvironment({ data: rows, prompt: "question", extractor: "last-integer" as never, heldOut })).rejects.toThrow(/environment\.extractor/);
  });

  it("evaluates strict-format accuracy, the truncated share, the median length and pass@k on the held-out rows", async () => {
    const environment = await createDatasetEnvironment({ data: rows, prompt: "question", extractor: "tolerant", format: { extractor: "answer-line" }, maxTokens: 12, heldOut });
    // Greedy: rows 0–3 answer in the asked form, 4–5 right in words, 6 rambles past the budget, 7–9 wrong. Sampled:
    // every row right once in its 4 samples except 8 and 9.
    const greedyReply = (index: number) =>
      index < 4 ? `Answer: ${index + 2}` : index < 6 ? `It is ${index + 2}` : index === 6 ? "Let me think about this for a long while" : "Answer: 0";
    const client = new ScriptedInferenceClient({
      rules: [{ when: () => true, reply: (request) => (request.sampler.temperature === 0 ? greedyReply(indexOf(request)) : request.sampler.seed % 4 === 0 && indexOf(request) < 8 ? `${indexOf(request) + 2}` : "no") }],
    });
    const evaluation = await environment.evaluate?.(client, { samples: 4, seed: 0 });
    // Answer lengths in byte tokens: 9,9,9,9,7,7,12,9,9,9 → median 9.
    expect(evaluation).toEqual({ heldOutAccuracy: 0.6, n: 10, figures: { truncated: 0.1, medianCompletionTokens: 9, strictAccuracy: 0.4 }, passAtK: { k: 4, value: 0.8 } });
    expect(environment.evaluatesPassAtK).toBe(true);
  });
});
