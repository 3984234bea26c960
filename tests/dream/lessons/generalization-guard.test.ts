import { describe, expect, it } from "vitest";
import { checkGeneralization, GENERALIZATION_MIN_NGRAM } from "../../../src/dream/lessons/generalization-guard.js";
import { LESSON_DOMAINS } from "../../../src/dream/lessons/lesson-domains.js";
import { LessonSchema } from "../../../src/dream/lessons/lesson.js";
import { GENERAL, SOURCE } from "./lesson-fixtures.js";

describe("checkGeneralization", () => {
  it("accepts a general lesson and stamps the challenge hash", () => {
    const verdict = checkGeneralization(GENERAL, SOURCE);
    expect(verdict).toEqual({ accepted: true, lesson: { ...GENERAL, sourceChallengeHash: "c0ffee" } });
    if (verdict.accepted) expect(LessonSchema.parse(verdict.lesson)).toEqual(verdict.lesson);
  });

  it("rejects a trigger that restates the prompt (6 consecutive tokens, any case)", () => {
    const candidate = { ...GENERAL, trigger: "When asked to write the NUMBER of requests per HTTP status code" };
    expect(checkGeneralization(candidate, SOURCE)).toEqual({
      accepted: false,
      rejection: { kind: "trigger-restates-prompt", detail: "write the number of requests per" },
    });
  });

  it("lets 5 shared tokens through: the threshold is the seed's 6", () => {
    expect(GENERALIZATION_MIN_NGRAM).toBe(6);
    const candidate = { ...GENERAL, trigger: "Counting the number of requests per route in any log" };
    expect(checkGeneralization(candidate, SOURCE).accepted).toBe(true);
  });

  it("rejects a correct pattern that copies the validator", () => {
    const candidate = { ...GENERAL, correctPattern: 'Emit exactly const expected = { "200": 1, "404": 1 } as the output' };
    const verdict = checkGeneralization(candidate, SOURCE);
    expect(verdict.accepted).toBe(false);
    if (!verdict.accepted) expect(verdict.rejection.kind).toBe("pattern-copies-validator");
  });

  it("rejects a correct pattern that copies the setup", () => {
    const candidate = { ...GENERAL, correctPattern: 'Remember the lines are ["GET /a 200", "GET /b 404", "bad line"]' };
    const verdict = checkGeneralization(candidate, SOURCE);
    expect(verdict.accepted).toBe(false);
    if (!verdict.accepted) expect(verdict.rejection.kind).toBe("pattern-copies-setup");
  });

  it("rejects empty domains", () => {
    const verdict = checkGeneralization({ ...GENERAL, domains: [] }, SOURCE);
    expect(verdict.accepted).toBe(false);
    if (!verdict.accepted) expect(verdict.rejection.kind).toBe("empty-domains");
  });

  it("rejects a domain off the taxonomy (the seed's python names included)", () => {
    for (const domain of ["sql", "python_general", "regex_parse"]) {
      const verdict = checkGeneralization({ ...GENERAL, domains: ["regex-parse", domain] }, SOURCE);
      expect(verdict.accepted).toBe(false);
      if (!verdict.accepted) {
        expect(verdict.rejection.kind).toBe("off-taxonomy-domain");
        expect(verdict.rejection.detail).toContain(JSON.stringify(domain));
      }
    }
  });

  it("deduplicates repeated domains", () => {
    const verdict = checkGeneralization({ ...GENERAL, domains: ["algorithms", "algorithms"] }, SOURCE);
    expect(verdict.accepted && verdict.lesson.domains).toEqual(["algorithms"]);
  });

  it("keeps the taxonomy to the seven JavaScript domains", () => {
    expect(LESSON_DOMAINS).toEqual([
      "data-analysis",
      "regex-parse",
      "algorithms",
      "concurrency",
      "json-transform",
      "text-processing",
      "node-general",
    ]);
  });
});
