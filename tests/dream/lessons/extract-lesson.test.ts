import { describe, expect, it } from "vitest";
import { StructuredOutputError } from "../../../src/core/errors/index.js";
import { extractLesson } from "../../../src/dream/lessons/extract-lesson.js";
import type { LessonExtractionInput } from "../../../src/dream/lessons/lesson-extraction-prompt.js";
import { fakeScoringContext } from "../../helpers/fake-scoring-context.js";
import { GENERAL, SOURCE } from "./lesson-fixtures.js";

const INPUT: LessonExtractionInput = {
  prompt: SOURCE.prompt,
  setup: SOURCE.setup,
  validator: SOURCE.validator,
  failedAttemptErrors: ["TypeError: Cannot read properties of null (reading '1')"],
  winningSolution: "const m = line.match(/ (\\d{3})$/); if (!m) continue;",
  challengeHash: SOURCE.challengeHash,
};

describe("extractLesson", () => {
  it("asks the judge with the challenge, the errors and the winning solution, and parses strict JSON", async () => {
    const judge = fakeScoringContext({ replies: [`Here it is:\n\`\`\`json\n${JSON.stringify(GENERAL)}\n\`\`\``] });
    const extracted = await extractLesson(judge, INPUT);
    expect(extracted.candidate).toEqual(GENERAL);
    expect(extracted.attempts).toBe(1);
    const [call] = judge.calls;
    const user = call?.messages[1]?.content ?? "";
    for (const part of [INPUT.prompt, INPUT.setup, INPUT.validator, "Attempt 1: TypeError", INPUT.winningSolution]) expect(user).toContain(part);
    expect(call?.messages[0]?.content).toContain("regex-parse");
    expect(call?.options?.sampler?.maxTokens).toBe(512);
  });

  it("resamples an answer that is not a lesson, and keeps an off-taxonomy domain for the guard to name", async () => {
    const offTaxonomy = { ...GENERAL, domains: ["sql"] };
    const judge = fakeScoringContext({ replies: ['{"trigger": "x"}', JSON.stringify(offTaxonomy)] });
    const extracted = await extractLesson(judge, INPUT);
    expect(extracted).toMatchObject({ candidate: offTaxonomy, attempts: 2 });
  });

  it("fails with StructuredOutputError when the judge never answers valid JSON", async () => {
    const judge = fakeScoringContext({ replies: ["no", "still no"] });
    await expect(extractLesson(judge, INPUT, { maxAttempts: 2 })).rejects.toBeInstanceOf(StructuredOutputError);
  });

  it("says so when there were no failed attempts", async () => {
    const judge = fakeScoringContext({ replies: [JSON.stringify(GENERAL)] });
    await extractLesson(judge, { ...INPUT, failedAttemptErrors: [] });
    expect(judge.calls[0]?.messages[1]?.content).toContain("solved on the first attempt");
  });
});
