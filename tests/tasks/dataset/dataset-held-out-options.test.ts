import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { loadEpisodeModule } from "../../../src/arena/pool/episode-module.js";
import { fnv1aText } from "../../../src/core/hashing/fnv1a.js";
import type { JsonObject } from "../../../src/core/json.js";
import type { Environment } from "../../../src/environments/environment.js";
import { ScriptedInferenceClient } from "../../../src/inference/scripted-inference-client.js";
import { loadEnvironment } from "../../../src/tasks/built-in-environments.js";
import { createDatasetEnvironment } from "../../../src/tasks/dataset/dataset-environment.js";
import type { DatasetEpisode } from "../../../src/tasks/dataset/dataset-episode.js";

const rows = Array.from({ length: 60 }, (_, index) => ({ q: `${index + 10}+1=`, a: String(index + 11) }));

/** The rows the training store holds, in order. */
function storedRows(environment: Environment): JsonObject[] {
  return (environment.stores["dataset"]?.snapshot().entries ?? []).map((entry) => entry.artifact as JsonObject);
}

/** What an evaluation asks: each request's user prompt, the client always answering 0. */
async function evaluatedPrompts(environment: Environment): Promise<string[]> {
  const client = new ScriptedInferenceClient({ rules: [{ when: () => true, reply: "0" }] });
  await environment.evaluate!(client);
  return client.requests.map((request) => String(request.messages.at(-1)?.content));
}

async function episodeOf(environment: Environment): Promise<DatasetEpisode> {
  return (await loadEpisodeModule(environment.episodes))[0] as DatasetEpisode;
}

describe("the dataset environment's held-out options", () => {
  let folder: string;

  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), "selfplay-dataset-held-out-"));
  });

  it('{ rule: "hashed", column }: the rows whose column hashes to 0 mod the modulus (default 10) are evaluated, the rest stored', async () => {
    const isHeldOut = (row: { q: string }, modulus: number) => fnv1aText(row.q) % modulus === 0;
    const environment = await createDatasetEnvironment({ data: rows, prompt: "q", answer: "a", heldOut: { rule: "hashed", column: "q" } });
    expect(storedRows(environment)).toEqual(rows.filter((row) => !isHeldOut(row, 10)));
    expect(await evaluatedPrompts(environment)).toEqual(rows.filter((row) => isHeldOut(row, 10)).map((row) => row.q));
    // From JSON options too (`--env dataset`, a config's `environment`).
    const bySix = await loadEnvironment("dataset", { data: rows, prompt: "q", answer: "a", heldOut: { rule: "hashed", column: "q", modulus: 6 } });
    expect(await evaluatedPrompts(bySix)).toEqual(rows.filter((row) => isHeldOut(row, 6)).map((row) => row.q));
    await expect(createDatasetEnvironment({ data: rows, prompt: "q", answer: "a", heldOut: { rule: "hashed", column: "question" } })).rejects.toThrow(/^environment\.heldOut\.column: .*row 1 has columns q, a/);
  });

  it("{ data }: held-out rows of their own (an array, or a file by its extension), every row of data stored for training", async () => {
    const heldOut = [{ q: "5+1=", a: "6" }, { q: "6+1=", a: "7" }];
    const given = await createDatasetEnvironment({ data: rows, prompt: "q", answer: "a", heldOut: { data: heldOut } });
    expect(storedRows(given)).toEqual(rows);
    expect(await evaluatedPrompts(given)).toEqual(["5+1=", "6+1="]);
    const file = join(folder, "held-out.csv");
    await writeFile(file, "q,a\n7+1=,8\n8+1=,9\n9+1=,10\n");
    const fromFile = await loadEnvironment("dataset", { data: rows, prompt: "q", answer: "a", heldOut: { data: file }, evaluateItems: 2 });
    expect(storedRows(fromFile)).toEqual(rows);
    expect(await evaluatedPrompts(fromFile)).toEqual(["7+1=", "8+1="]);
    // A file whose extension says nothing, read in `dataFormat`.
    const text = join(folder, "held-out.txt");
    await writeFile(text, "q,a\n7+1=,8\n");
    expect(await evaluatedPrompts(await createDatasetEnvironment({ data: rows, prompt: "q", answer: "a", heldOut: { data: text }, dataFormat: "csv" }))).toEqual(["7+1="]);
  });

  it("{ data }: a held-out row without the prompt or answer column, or an unreadable file, is refused naming it", async () => {
    await expect(createDatasetEnvironment({ data: rows, prompt: "q", answer: "a", heldOut: { data: [{ q: "5+1=", a: "6" }, { question: "6+1=", a: "7" }] } })).rejects.toThrow(
      /^environment\.prompt: .*held-out row 2 has no "q" column \(its columns: question, a\)/,
    );
    await expect(createDatasetEnvironment({ data: rows, prompt: "q", answer: "a", heldOut: { data: [{ q: "5+1=" }] } })).rejects.toThrow(/^environment\.answer: .*held-out row 1 has columns q/);
    await expect(createDatasetEnvironment({ data: rows, prompt: "q", answer: "a", heldOut: { data: join(folder, "missing.jsonl") } })).rejects.toThrow(/^environment\.heldOut\.data: .*ENOENT/);
    // From files, by the same checks as data's rows, the file named: a row lacking the prompt, one lacking the answer.
    const lines = (values: object[]) => values.map((value) => `${JSON.stringify(value)}\n`).join("");
    const badPrompt = join(folder, "bad-prompt.jsonl");
    const badAnswer = join(folder, "bad-answer.jsonl");
    await writeFile(badPrompt, lines([{ q: "5+1=", a: "6" }, { question: "6+1=", a: "7" }]));
    await writeFile(badAnswer, lines([{ q: "5+1=" }]));
    const missingPrompt = (row: string) => new RegExp(`^environment\\.prompt: .*; ${row.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")} has no "q" column \\(its columns: question, a\\)$`);
    await expect(createDatasetEnvironment({ data: rows, prompt: "q", answer: "a", heldOut: { data: badPrompt } })).rejects.toThrow(missingPrompt(`held-out row 2 of ${badPrompt}`));
    await expect(createDatasetEnvironment({ data: badPrompt, prompt: "q", answer: "a", heldOut: { data: rows } })).rejects.toThrow(missingPrompt(`row 2 of ${badPrompt}`));
    await expect(createDatasetEnvironment({ data: rows, prompt: "q", answer: "a", heldOut: { data: badAnswer } })).rejects.toThrow(`environment.answer: got "a"; expected a column every row has as text or a number; held-out row 1 of ${badAnswer} has columns q`);
    await expect(createDatasetEnvironment({ data: badAnswer, prompt: "q", answer: "a", heldOut: 0 })).rejects.toThrow(`environment.answer: got "a"; expected a column every row has as text or a number; row 1 of ${badAnswer} has columns q`);
    // Nothing reads a held-out row's cluster: rows given apart need none.
    const clustered = rows.map((row) => ({ ...row, kind: "plus" }));
    await expect(createDatasetEnvironment({ data: clustered, prompt: "q", answer: "a", cluster: "kind", heldOut: { data: [{ q: "5+1=", a: "6" }] } })).resolves.toMatchObject({ name: "dataset" });
    // Custom reward functions need no answer column.
    await expect(createDatasetEnvironment({ data: rows, prompt: "q", rewards: [{ name: "one", fn: () => 1 }], heldOut: { data: [{ q: "5+1=" }] } })).resolves.toMatchObject({ name: "dataset" });
  });

  it("names every form heldOut takes when it is none of them, or the field at fault when it is nearly one", async () => {
    const refusal = (heldOut: unknown) => createDatasetEnvironment({ data: rows, prompt: "q", answer: "a", heldOut: heldOut as never });
    for (const heldOut of ["a tenth", { rule: "hashed", colum: "q" }, { rule: "hashed", column: "q", modulus: 0 }]) {
      await expect(refusal(heldOut)).rejects.toThrow(/^environment\.heldOut: got .*; expected a fraction in \[0, 1\], \{"column", "value"\?\}, \{"rule": "hashed", "column", "modulus"\?\} or \{"data": a file or rows\}$/);
    }
    await expect(refusal(1.5)).rejects.toThrow(/^environment\.heldOut: got 1\.5; expected .*<=1/);
    await expect(refusal({ data: [] })).rejects.toThrow(/^environment\.heldOut\.data: got \[\]; expected at least one row/);
  });

  it("records the built-in reward's answer column as each rollout's expected answer (verl's ground truth); custom rewards record none", async () => {
    const state = { response: { text: " 11\nuser:" } } as never;
    const builtIn = await episodeOf(await createDatasetEnvironment({ data: rows, prompt: "q", answer: "a" }));
    expect(builtIn.finalize(state, rows[0] as JsonObject)).toEqual({ answer: " 11\nuser:", expected: "11" });
    const custom = await episodeOf(await createDatasetEnvironment({ data: rows, prompt: "q", rewards: [{ name: "one", fn: () => 1 }] }));
    expect(custom.finalize(state, rows[0] as JsonObject)).toEqual({ answer: " 11\nuser:" });
  });
});
