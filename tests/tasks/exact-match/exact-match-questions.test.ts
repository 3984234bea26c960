import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { readQuestions, twoDigitCluster, twoDigitQuestions } from "../../../src/tasks/exact-match/exact-match-questions.js";

describe("twoDigitQuestions", () => {
  it("asks every two-digit addition and subtraction, each clustered by operation, carry/borrow and result size", () => {
    const all = twoDigitQuestions();
    expect(all).toHaveLength(2 * 90 * 90);
    expect(all.slice(0, 2)).toEqual([{ question: "10+10=", answer: "20", cluster: "add" }, { question: "10-10=", answer: "0", cluster: "subtract" }]);
    expect([twoDigitCluster(12, "+", 34), twoDigitCluster(17, "+", 25), twoDigitCluster(52, "+", 61), twoDigitCluster(58, "+", 67)]).toEqual(["add", "add-carry", "add-hundreds", "add-carry-hundreds"]);
    expect([twoDigitCluster(57, "-", 23), twoDigitCluster(52, "-", 27), twoDigitCluster(23, "-", 57)]).toEqual(["subtract", "subtract-borrow", "subtract-negative"]);
  });
});

describe("readQuestions", () => {
  let folder: string;

  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), "selfplay-exact-match-questions-"));
  });

  it("reads answers and clusters as text, a cluster on every line or none", async () => {
    const good = join(folder, "clustered.jsonl");
    await writeFile(good, '{"question": "9+1=", "answer": "10", "cluster": "carry"}\n\n{"question": "3+1=", "answer": 4, "cluster": 7}\n');
    expect(readQuestions(good)).toEqual([{ question: "9+1=", answer: "10", cluster: "carry" }, { question: "3+1=", answer: "4", cluster: "7" }]);
    const plain = join(folder, "plain.jsonl");
    await writeFile(plain, '{"question": "9+1=", "answer": "10"}\n');
    expect(readQuestions(plain)).toEqual([{ question: "9+1=", answer: "10" }]);
  });

  it("names the field, file, line and what a bad line needs", async () => {
    const mixed = join(folder, "mixed.jsonl");
    await writeFile(mixed, '{"question": "9+1=", "answer": "10", "cluster": "carry"}\n{"question": "3+1=", "answer": "4"}\n');
    expect(() => readQuestions(mixed)).toThrow(/^environment\.data \(.*mixed\.jsonl:2\)\.cluster.*a "cluster" on every line or on none \(line 1 has one\)/);
    const empty = join(folder, "empty-cluster.jsonl");
    await writeFile(empty, '{"question": "9+1=", "answer": "10", "cluster": ""}\n');
    expect(() => readQuestions(empty)).toThrow(/^environment\.data \(.*empty-cluster\.jsonl:1\).*"cluster": a non-empty string or number/);
    const extra = join(folder, "extra.jsonl");
    await writeFile(extra, '{"question": "9+1=", "answer": "10", "hint": "carry"}\n');
    expect(() => readQuestions(extra, "environment.heldOut")).toThrow(/^environment\.heldOut \(.*extra\.jsonl:1\).*and no other key/);
    const notJson = join(folder, "not-json.jsonl");
    await writeFile(notJson, "9+1=,10\n");
    expect(() => readQuestions(notJson)).toThrow(/^environment\.data \(.*not-json\.jsonl:1\): .*a JSON object/);
    const blank = join(folder, "blank.jsonl");
    await writeFile(blank, "\n");
    expect(() => readQuestions(blank)).toThrow(/^environment\.data: .*a file with at least one question/);
  });
});
