import { describe, expect, it } from "vitest";
import { DialecticSettingsSchema } from "../../src/dialectic/dialectic-settings.js";
import { detectOscillation, type OscillationRound } from "../../src/dialectic/detect-oscillation.js";
import { constraintInjection, escapeStrategyFor, recurringIssues } from "../../src/dialectic/escape-strategy.js";
import { isStalled } from "../../src/dialectic/is-stalled.js";
import { proposalHash } from "../../src/dialectic/proposal-hash.js";
import { normalizeText, textSimilarity } from "../../src/dialectic/text-similarity.js";

const settings = DialecticSettingsSchema.parse({});
const round = (proposal: string, score: number, issues: string[] = []): OscillationRound => ({ proposal, critique: { score, issues } });
const A = "Use one regular expression for the whole address.";
const B = "Split at the @ and check the local part and the domain separately.";
const C = "Parse the address with a small state machine over its characters.";

describe("text similarity", () => {
  it("ignores case, spacing and punctuation, and falls with rewording", () => {
    expect(normalizeText("  Hello,   WORLD!! ")).toBe("hello world");
    expect(textSimilarity("Hello, world!", "hello world")).toBe(1);
    expect(textSimilarity(A, `${A} Keep it short.`)).toBeGreaterThan(0.8);
    expect(textSimilarity(A, B)).toBeLessThan(0.4);
    expect(textSimilarity("", "x")).toBe(0);
    expect(proposalHash("Hello, world!")).toBe(proposalHash("hello   WORLD"));
    expect(proposalHash(A)).toMatch(/^[0-9a-f]{16}$/);
  });
});

describe("detectOscillation", () => {
  it("needs a full window", () => {
    expect(detectOscillation([round(A, 0.5), round(A, 0.5)], settings)).toBeNull();
  });

  it("flip-flop: the latest proposal returns to one in the window", () => {
    expect(detectOscillation([round(A, 0.5), round(B, 0.6), round(A.toLowerCase(), 0.9)], settings)).toBe("flip-flop");
    expect(detectOscillation([round(A, 0.5), round(B, 0.6), round(C, 0.9)], settings)).toBeNull();
    // A repetition the latest round takes no part in is old news.
    expect(detectOscillation([round(A, 0.5), round(A, 0.6), round(C, 0.9)], settings)).toBeNull();
    // Outside the window it no longer counts.
    expect(detectOscillation([round(A, 0.3), round(B, 0.5), round(C, 0.7), round(A, 0.9)], settings)).toBeNull();
    expect(detectOscillation([round(A, 0.3), round(B, 0.5), round(C, 0.7), round(A, 0.9)], { ...settings, oscillationWindow: 4 })).toBe("flip-flop");
  });

  it("incremental reversal: an issue that went away comes back", () => {
    const rounds = [round(A, 0.3, ["X is broken"]), round(B, 0.5, ["Y is missing"]), round(C, 0.7, ["x is broken."])];
    expect(detectOscillation(rounds, settings)).toBe("incremental-reversal");
    const persistent = [round(A, 0.3, ["X is broken"]), round(B, 0.5, ["X is broken", "Y"]), round(C, 0.7, ["X is broken"])];
    expect(detectOscillation(persistent, settings)).toBeNull();
  });

  it("perfection loop: scores back and forth within the band, not a plateau or a slow climb", () => {
    expect(detectOscillation([round(A, 0.82), round(B, 0.84), round(C, 0.83)], settings)).toBe("perfection-loop");
    expect(detectOscillation([round(A, 0.82), round(B, 0.87), round(C, 0.83)], settings)).toBe("perfection-loop");
    expect(detectOscillation([round(A, 0.8), round(B, 0.86), round(C, 0.83)], settings)).toBeNull();
    expect(detectOscillation([round(A, 0.5), round(B, 0.5), round(C, 0.5)], settings)).toBeNull();
    expect(detectOscillation([round(A, 0.5), round(B, 0.52), round(C, 0.54)], settings)).toBeNull();
  });

  it("prefers a repeated proposal, then a score pattern, then returning issues", () => {
    const all = [round(A, 0.82, ["X"]), round(B, 0.84, ["Y"]), round(A, 0.83, ["X"])];
    expect(detectOscillation(all, settings)).toBe("flip-flop");
    const scoresAndIssues = [round(A, 0.82, ["X"]), round(B, 0.84, ["Y"]), round(C, 0.83, ["X"])];
    expect(detectOscillation(scoresAndIssues, settings)).toBe("perfection-loop");
  });
});

describe("isStalled", () => {
  it("stalls when no step of the window gains the improvement threshold and the score is below approval", () => {
    expect(isStalled([0.5, 0.52, 0.54], settings)).toBe(true);
    expect(isStalled([0.5, 0.55, 0.56], settings)).toBe(false);
    expect(isStalled([0.9, 0.55, 0.56, 0.57], settings)).toBe(true);
    expect(isStalled([0.5, 0.52], settings)).toBe(false);
    expect(isStalled([0.86, 0.86, 0.86], settings)).toBe(false);
  });
});

describe("escape strategies", () => {
  it("go raise-temperature, inject-constraints, then return-best", () => {
    expect([1, 2, 3, 4].map(escapeStrategyFor)).toEqual(["raise-temperature", "inject-constraints", "return-best", "return-best"]);
  });

  it("inject the issues that recur in the window, or the latest ones when none does", () => {
    const window = [round(A, 0.5, ["no tests", "slow"]), round(B, 0.5, ["unclear"]), round(C, 0.5, ["No tests.", "unclear", "new"])];
    expect(recurringIssues(window, 0.8)).toEqual(["no tests", "unclear"]);
    expect(recurringIssues([round(A, 0.5, ["a"]), round(B, 0.5, ["b"])], 0.8)).toEqual(["b"]);
    expect(constraintInjection(["no tests", "unclear"])).toBe(
      "You MUST address these specific issues:\n1. no tests\n2. unclear\n\nDo NOT repeat previous approaches that had these issues.",
    );
    expect(constraintInjection([])).toBe("");
  });
});
