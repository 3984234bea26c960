import { describe, expect, it } from "vitest";
import { fnv1aText } from "../../../src/core/hashing/fnv1a.js";
import { isHeldOutQuestion, twoDigitQuestions } from "../../../src/tasks/exact-match/exact-match-questions.js";

describe("isHeldOutQuestion", () => {
  it("holds out exactly the default questions whose text's FNV-1a 32 ≡ 0 (mod 10)", () => {
    const questions = twoDigitQuestions();
    const heldOut = questions.filter(isHeldOutQuestion);
    expect(heldOut).toEqual(questions.filter((question) => fnv1aText(question.question) % 10 === 0));
    expect(heldOut.length / questions.length).toBeGreaterThan(0.08);
    expect(heldOut.length / questions.length).toBeLessThan(0.12);
  });
});
