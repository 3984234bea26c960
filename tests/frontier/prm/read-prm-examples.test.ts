import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { CorruptJsonlError, InvalidInputError } from "../../../src/core/errors/index.js";
import { readPrmExamples } from "../../../src/frontier/prm/read-prm-examples.js";

const line = (label: number, prefix = "") => `${JSON.stringify({ task: "2+3", cluster: "add-1x1-no-carry", prefix, label })}\n`;

describe("readPrmExamples", () => {
  it("reads every file the glob names, in path order, and reports torn last lines", async () => {
    const folder = await mkdtemp(join(tmpdir(), "selfplay-prm-examples-"));
    await writeFile(join(folder, "b.jsonl"), line(0.25, "5"));
    await writeFile(join(folder, "a.jsonl"), line(1) + '{"task": "2+');
    const read = await readPrmExamples(join(folder, "*.jsonl"));
    expect(read.files).toEqual([join(folder, "a.jsonl"), join(folder, "b.jsonl")]);
    expect(read.examples.map((example) => example.label)).toEqual([1, 0.25]);
    expect(read.tornFiles).toEqual([join(folder, "a.jsonl")]);
  });

  it("names the line of a label outside [0, 1], and refuses a glob that names nothing", async () => {
    const folder = await mkdtemp(join(tmpdir(), "selfplay-prm-examples-"));
    await writeFile(join(folder, "bad.jsonl"), line(1) + line(1.5));
    await expect(readPrmExamples(join(folder, "bad.jsonl"))).rejects.toThrow(CorruptJsonlError);
    await expect(readPrmExamples(join(folder, "bad.jsonl"))).rejects.toThrow(/bad\.jsonl:2: .*label: a number in \[0, 1\]/);
    await expect(readPrmExamples(join(folder, "*.txt"))).rejects.toThrow(InvalidInputError);
  });
});
