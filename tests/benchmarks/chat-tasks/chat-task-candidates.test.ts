import { describe, expect, it } from "vitest";
import { answersMatch } from "../../../src/core/answers/answers-match.js";
import { extractAnswer } from "../../../src/core/answers/answer-extractors.js";
import { chatTaskCandidates } from "../../../benchmarks/chat-tasks/chat-task-candidates.js";

describe("the screened chat-task candidates", () => {
  const candidates = chatTaskCandidates();

  it("are the screen's rows and held-out splits (benchmarks/RESULTS.md)", () => {
    expect(candidates.map((candidate) => [candidate.name, candidate.rows.length, candidate.rows.filter((row) => row["split"] === "test").length])).toEqual([
      ["letter-counts", 1925, 448],
      ["sums-in-words", 8100, 771],
      ["word-problems", 3600, 358],
      ["two-step-problems", 3600, 390],
      ["one-or-two-step-problems", 7200, 748],
      ["unit-conversions", 133, 72],
    ]);
  });

  it("hold no question on both sides, and no worked example is a row", () => {
    for (const candidate of candidates) {
      const questions = (split: string) => new Set(candidate.rows.filter((row) => row["split"] === split).map((row) => row["question"]));
      const training = questions("train");
      expect([...questions("test")].filter((question) => training.has(question)), candidate.name).toEqual([]);
      expect(candidate.fewShot).toHaveLength(2);
      for (const example of candidate.fewShot) expect(candidate.rows.some((row) => row["question"] === example.user), example.user).toBe(false);
    }
  });

  it("answer every word problem (one step and two) and sum right, and each worked example reads as its own answer", () => {
    for (const row of candidates.find((candidate) => candidate.name === "word-problems")?.rows ?? []) {
      const [first, second] = (row["question"] as string).match(/\d+/g)?.map(Number) ?? [];
      expect(Number(row["answer"])).toBe((row["question"] as string).includes("gives away") ? (first as number) - (second as number) : (first as number) + (second as number));
    }
    for (const row of candidates.find((candidate) => candidate.name === "two-step-problems")?.rows ?? []) {
      const [first, second, third] = (row["question"] as string).match(/\d+/g)?.map(Number) ?? [];
      expect(Number(row["answer"])).toBe((first as number) + (second as number) - (third as number));
      expect(Number(row["answer"])).toBeGreaterThan(0);
    }
    // The mix is the two candidates' rows, each on its own side of the split and its cluster named by its kind.
    const side = (name: string) => new Map((candidates.find((candidate) => candidate.name === name)?.rows ?? []).map((row) => [row["question"], row["split"]]));
    const oneStep = side("word-problems");
    const twoStep = side("two-step-problems");
    for (const row of candidates.find((candidate) => candidate.name === "one-or-two-step-problems")?.rows ?? []) {
      const kind = oneStep.has(row["question"]) ? "one-step" : "two-step";
      expect(row["split"]).toBe((kind === "one-step" ? oneStep : twoStep).get(row["question"]));
      expect(String(row["cluster"]).startsWith(`${kind}:`)).toBe(true);
    }
    for (const row of candidates.find((candidate) => candidate.name === "sums-in-words")?.rows ?? []) {
      const [first, second] = (row["question"] as string).match(/\d+/g)?.map(Number) ?? [];
      expect(Number(row["answer"])).toBe((first as number) + (second as number));
    }
    for (const candidate of candidates) {
      for (const example of candidate.fewShot) expect(extractAnswer("answer-line", example.assistant), example.assistant).toBe(extractAnswer("tolerant", example.assistant));
    }
    expect(answersMatch(extractAnswer("tolerant", "30 + 12 = 42.\nAnswer: 42"), "42")).toBe(true);
  });
});
