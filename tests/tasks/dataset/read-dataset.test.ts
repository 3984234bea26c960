import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { InvalidInputError } from "../../../src/core/errors/index.js";
import { readDataset } from "../../../src/tasks/dataset/read-dataset.js";

const folder = mkdtempSync(join(tmpdir(), "selfplay-dataset-"));
const write = (name: string, text: string) => {
  const path = join(folder, name);
  writeFileSync(path, text);
  return path;
};
const rows = [
  { question: "12+1=", answer: "13" },
  { question: "40-1=", answer: "39" },
];

describe("readDataset", () => {
  it("reads JSON Lines, skipping blank lines", async () => {
    expect(await readDataset(write("q.jsonl", `${rows.map((row) => JSON.stringify(row)).join("\n")}\n\n`))).toEqual(rows);
  });

  it("reads a JSON array of objects", async () => {
    expect(await readDataset(write("q.json", JSON.stringify(rows)))).toEqual(rows);
  });

  it("reads CSV with a header row, quoted cells included, every cell as text", async () => {
    expect(await readDataset(write("q.csv", 'question,answer\n12+1=,13\n"40-1=",39\n'))).toEqual(rows);
  });

  it("reads Parquet, its 64-bit integers as numbers", async () => {
    expect(await readDataset(join(import.meta.dirname, "fixtures", "questions.parquet"))).toEqual([
      { question: "12+1=", answer: 13, split: "train" },
      { question: "40-1=", answer: 39, split: "test" },
      { question: "77+1=", answer: 78, split: "train" },
    ]);
  });

  it("takes the format from `format` when the extension says nothing", async () => {
    expect(await readDataset(write("q.txt", JSON.stringify(rows)), "json")).toEqual(rows);
  });

  it("names the file and line of a bad JSONL line, an unknown extension, a missing file and a non-array JSON", async () => {
    const bad = write("bad.jsonl", '{"question": "1+1="}\nnot json\n');
    await expect(readDataset(bad)).rejects.toThrow(`environment.data (${bad}:2)`);
    await expect(readDataset(write("q.txt", "x"))).rejects.toThrow(/a \.jsonl, \.json, \.csv or \.parquet file/);
    await expect(readDataset(join(folder, "missing.csv"))).rejects.toThrow(/ENOENT/);
    await expect(readDataset(write("object.json", "{}"))).rejects.toBeInstanceOf(InvalidInputError);
    await expect(readDataset(write("empty.jsonl", "\n"))).rejects.toThrow(/at least one row/);
  });
});
