import { z } from "zod";
import { describe, expect, it } from "vitest";
import { CRITIQUE_LIMITS, CritiqueSchema } from "../../src/dialectic/critique.js";
import { parseCritique } from "../../src/dialectic/parse-critique.js";
import { WeightedCritiqueSchema } from "../../src/dialectic/weighted-critique.js";

const critique = (text: string) => CritiqueSchema.parse(parseCritique(text));

describe("CritiqueSchema", () => {
  it("has the bounds CRITIQUE_LIMITS states", () => {
    const schema = z.toJSONSchema(CritiqueSchema) as { properties: Record<string, { maxLength?: number; maxItems?: number; items?: { maxLength?: number } }> };
    expect(schema.properties["feedback"]?.maxLength).toBe(CRITIQUE_LIMITS.feedback);
    for (const list of ["issues", "suggestions"]) {
      expect(schema.properties[list]?.maxItems).toBe(CRITIQUE_LIMITS.items);
      expect(schema.properties[list]?.items?.maxLength).toBe(CRITIQUE_LIMITS.item);
    }
  });
});

describe("parseCritique", () => {
  it("returns bare JSON exactly as written, so the strict path validates it unrepaired", () => {
    const text = '{"approved": true, "score": 0.9, "feedback": "ok", "issues": [], "suggestions": []}';
    expect(parseCritique(text)).toEqual(JSON.parse(text));
    expect(parseCritique('{"approved": "yes", "score": 9}')).toEqual({ approved: "yes", score: 9 });
    expect(() => critique('{"approved": "yes", "score": 9}')).toThrow();
  });

  it("refuses JSON cut short instead of guessing at it", () => {
    expect(() => parseCritique('{"approved": true, "score": 0.9, "feedb')).toThrow(SyntaxError);
  });

  it("reads the specification's plain-text format", () => {
    const text = [
      "APPROVED: no",
      "SCORE: 0.55",
      "FEEDBACK: Thorough, but hard to follow.",
      "ISSUES: too complex to maintain, rules are hard to test",
      "SUGGESTIONS: None",
    ].join("\n");
    expect(critique(text)).toEqual({
      approved: false,
      score: 0.55,
      feedback: "Thorough, but hard to follow.",
      issues: ["too complex to maintain", "rules are hard to test"],
      suggestions: [],
    });
  });

  it("reads a bare APPROVED line, Markdown labels and bullet lists", () => {
    const text = [
      "## Review",
      "**Score:** 0.7",
      "APPROVED",
      "**Issues:**",
      "- the loop is off by one",
      "* names are unclear",
      "1. no tests",
      "Suggestions:",
      "- add a test for the empty list",
    ].join("\n");
    expect(critique(text)).toEqual({
      approved: true,
      score: 0.7,
      feedback: "Review",
      issues: ["the loop is off by one", "names are unclear", "no tests"],
      suggestions: ["add a test for the empty list"],
    });
    expect(critique("Score: 0.4\nIssues:\nslow\nno tests\n\nOverall a fair try.").issues).toEqual(["slow", "no tests"]);
    expect(critique("Score: 0.4\nIssues:\nslow\n\nOverall a fair try.").feedback).toBe("Overall a fair try.");
    expect(critique("Score: 0.4\nNOT APPROVED").approved).toBe(false);
    expect(critique("Verdict: Rejected\nScore: 0.4").approved).toBe(false);
    expect(critique("Approved: yes\nScore: 0.9").approved).toBe(true);
  });

  it.each([
    ["Score: 0.7", 0.7],
    ["Score: .7", 0.7],
    ["Score: 70%", 0.7],
    ["Score: 7/10", 0.7],
    ["Score: 7 / 10", 0.7],
    ["Rating: 7", 0.7],
    ["Overall score: 85", 0.85],
    ["score = 1", 1],
  ])("reads %j as %f", (text, expected) => {
    expect(critique(text).score).toBeCloseTo(expected, 12);
  });

  it("reads JSON inside prose or a code fence, coercing what a model writes loosely", () => {
    const text = 'Here is my review:\n```json\n{"Approved": "no", "Score": "6/10", "Issues": "slow; no docs"}\n```\nThanks!';
    expect(critique(text)).toEqual({ approved: false, score: 0.6, feedback: "", issues: ["slow", "no docs"], suggestions: [] });
    expect(critique('{"approved": true, "score": 0.8}\nHope this helps.')).toMatchObject({ approved: true, score: 0.8 });
  });

  it("reads a missing approval as not approved, and throws without a score", () => {
    expect(critique("Score: 0.95\nFeedback: excellent").approved).toBe(false);
    expect(() => parseCritique("Looks good to me, approved.")).toThrow(/no score/);
    expect(() => parseCritique("")).toThrow(/no score/);
  });

  it("cuts a long-winded critic to the schema's bounds", () => {
    const text = `Score: 0.5\nFeedback: ${"x".repeat(500)}\nIssues: ${["a", "b", "c", "d", "e", "f"].map((letter) => letter.repeat(100)).join(", ")}`;
    const parsed = critique(text);
    expect(parsed.feedback).toHaveLength(200);
    expect(parsed.feedback.endsWith("…")).toBe(true);
    expect(parsed.issues).toHaveLength(4);
    expect(parsed.issues.every((issue) => issue.length === 80)).toBe(true);
  });

  it("reads aspect lines into the scores of a weighted critique", () => {
    const text = "Correctness: 0.9\nCompleteness: 8/10\nStyle: 70%\nEfficiency: 0.5\nApproved: no\nIssues: slow";
    expect(WeightedCritiqueSchema.parse(parseCritique(text))).toEqual({
      approved: false,
      scores: { correctness: 0.9, completeness: 0.8, style: 0.7, efficiency: 0.5 },
      feedback: "",
      issues: ["slow"],
      suggestions: [],
    });
    const json = 'Review: {"approved": true, "scores": {"Correctness": "1", "completeness": 1, "style": 1, "efficiency": 1, "beauty": 0}}';
    expect(WeightedCritiqueSchema.parse(parseCritique(json)).scores).toEqual({ correctness: 1, completeness: 1, style: 1, efficiency: 1 });
  });
});
