import { describe, expect, it } from "vitest";
import { AnswerExtractorSchema, answerLine, boxedAnswer, extractAnswer, firstInteger, lastNumber } from "../../../src/core/answers/answer-extractors.js";
import { answersMatch } from "../../../src/core/answers/answers-match.js";

// Replies SmolLM2-135M-Instruct gave to the screen's prompts (greedy), and the forms they are read in.
const SUM_SENTENCE = "To add 5 and 8, you simply add them together: 5 + 8 = 13.";
const GSM_STYLE = "Mia has 7 + 12 = 18 cookies.\nMia gets 12 more cookies.\n#### 18\nThe answer is: 18";
const ANSWER_LINE = "Ben has 16 pencils, and he gives away 6 pencils. So, Ben has 16 - 6 = 9 more pencils left.\n\nAnswer: 9";

describe("answer extractors", () => {
  it("reads the last \\boxed{…} with nested braces, and nothing from an unclosed one", () => {
    expect(boxedAnswer("first \\boxed{3}, then \\boxed{\\frac{1}{2}} done")).toBe("\\frac{1}{2}");
    expect(boxedAnswer("\\boxed{ 42 }")).toBe("42");
    expect(boxedAnswer("\\boxed{4")).toBeUndefined();
    expect(boxedAnswer("no box")).toBeUndefined();
  });

  it("reads the last `Answer:` line, in any case, without emphasis or a full stop", () => {
    expect(answerLine(ANSWER_LINE)).toBe("9");
    expect(answerLine(GSM_STYLE)).toBe("18");
    expect(answerLine("answer: 3\n**Answer:** 12.")).toBe("12");
    expect(answerLine("Answer:\n")).toBeUndefined();
    expect(answerLine(SUM_SENTENCE)).toBeUndefined();
  });

  it("reads the last number without thousands commas, and the first integer canonical", () => {
    expect(lastNumber(SUM_SENTENCE)).toBe("13");
    expect(lastNumber("It costs 1,250 dollars, or -2.5 units.")).toBe("-2.5");
    expect(lastNumber("none")).toBeUndefined();
    expect(firstInteger("= -04 apples")).toBe("-4");
    expect(firstInteger(SUM_SENTENCE)).toBe("5");
  });

  it("tolerant takes boxed, else the answer line, else the last number", () => {
    expect(extractAnswer("tolerant", "Answer: 7, so \\boxed{8}")).toBe("8");
    expect(extractAnswer("tolerant", "Answer: 7 apples. I had 3.")).toBe("7");
    expect(extractAnswer("tolerant", "The answer is: $1,250.")).toBe("1250");
    expect(extractAnswer("tolerant", "Answer: **Paris**.")).toBe("Paris");
    expect(extractAnswer("tolerant", SUM_SENTENCE)).toBe("13");
    expect(extractAnswer("tolerant", "no idea")).toBeUndefined();
    // The bare formats the bundled base is read in.
    expect(extractAnswer("first-integer", "68 and 3")).toBe("68");
    expect(extractAnswer("first-line", " 58 \nmore")).toBe("58");
    expect(extractAnswer("text", "  a b  ")).toBe("a b");
  });

  it("names every extractor a configuration may choose, and refuses others", () => {
    expect(AnswerExtractorSchema.options).toEqual(["boxed", "answer-line", "last-number", "tolerant", "first-integer", "first-line", "text"]);
    expect(AnswerExtractorSchema.safeParse("last-integer").success).toBe(false);
  });
});

describe("answersMatch", () => {
  it("compares numbers as numbers and anything else as trimmed text", () => {
    expect(answersMatch("68.0", "68")).toBe(true);
    expect(answersMatch("1,250", "1250")).toBe(true);
    expect(answersMatch("-3", "3")).toBe(false);
    expect(answersMatch("7 apples", "7")).toBe(false);
    expect(answersMatch(" Paris ", "Paris")).toBe(true);
    expect(answersMatch("paris", "Paris")).toBe(false);
    expect(answersMatch(undefined, "7")).toBe(false);
  });
});
