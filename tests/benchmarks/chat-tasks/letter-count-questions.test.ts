import { describe, expect, it } from "vitest";
import { COMMON_WORDS } from "../../../benchmarks/chat-tasks/common-words.js";
import { letterCountQuestions } from "../../../benchmarks/chat-tasks/letter-count-questions.js";

const wordOf = (question: string) => /in the word "([a-z]+)"/.exec(question)?.[1] as string;
const letterOf = (question: string) => /the letter "([a-z])"/.exec(question)?.[1] as string;

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
