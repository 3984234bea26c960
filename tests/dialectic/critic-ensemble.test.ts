import type { z } from "zod";
import { describe, expect, it } from "vitest";
import { InvalidInputError } from "../../src/core/errors/index.js";
import type { Messages } from "../../src/core/schemas/message.js";
import type { StructuredJudgeOptions } from "../../src/core/verifiers/verifier.js";
import { criticPanel } from "../../src/dialectic/critic-panel.js";
import { aggregateCritiques, CriticEnsemble, type MemberCritique } from "../../src/dialectic/critic-ensemble.js";
import type { StructuredAsk } from "../../src/dialectic/critic.js";
import { StandardCritic } from "../../src/dialectic/standard-critic.js";
import { WeightedCritic } from "../../src/dialectic/weighted-critic.js";

const member = (critic: string, score: number, approved: boolean, issues: string[] = []): MemberCritique => ({
  critic,
  approved,
  score,
  feedback: `${critic} says so`,
  issues,
  suggestions: [],
});

/** An ask that answers each call with the next text, parsed and validated as the arena's judge would. */
function scriptedAsk(replies: string[]) {
  const calls: Array<{ messages: Messages; options: StructuredJudgeOptions }> = [];
  const ask: StructuredAsk = async <Schema extends z.ZodType>(messages: Messages, schema: Schema, options: StructuredJudgeOptions) => {
    calls.push({ messages, options });
    const text = replies[calls.length - 1] ?? "";
    return { value: schema.parse((options.parse ?? JSON.parse)(text)) as z.output<Schema>, text };
  };
  return { ask, calls };
}

describe("aggregateCritiques", () => {
  it("averages the scores, unions the issues (near-duplicates merged) and measures disagreement", () => {
    const verdict = aggregateCritiques([
      member("a", 0.9, true, ["no tests", "slow"]),
      member("b", 0.5, false, ["No tests!", "unclear names"]),
      member("c", 0.7, true, []),
    ]);
    expect(verdict.critique.score).toBeCloseTo(0.7, 12);
    expect(verdict.critique.issues).toEqual(["no tests", "slow", "unclear names"]);
    expect(verdict.critique.approved).toBe(true);
    expect(verdict.critique.feedback).toBe("a: a says so | b: b says so | c: c says so");
    // Population standard deviation of 0.9, 0.5, 0.7 is √(0.08/3); disagreement is twice it.
    expect(verdict.disagreement).toBeCloseTo(2 * Math.sqrt(0.08 / 3), 12);
    expect(verdict.members.map((entry) => entry.critic)).toEqual(["a", "b", "c"]);
  });

  it("approves by majority by default, or only when unanimous", () => {
    const split = [member("a", 0.9, true), member("b", 0.9, false)];
    expect(aggregateCritiques(split).critique.approved).toBe(false);
    expect(aggregateCritiques([...split, member("c", 0.9, true)]).critique.approved).toBe(true);
    expect(aggregateCritiques([...split, member("c", 0.9, true)], { approval: "unanimous" }).critique.approved).toBe(false);
  });

  it("reports 0 disagreement for agreeing critics and 1 for opposite extremes", () => {
    expect(aggregateCritiques([member("a", 0.6, false), member("b", 0.6, false)]).disagreement).toBe(0);
    expect(aggregateCritiques([member("a", 0, false), member("b", 1, true)]).disagreement).toBe(1);
    const alone = aggregateCritiques([member("a", 0.3, false, ["x"])]);
    expect(alone).toEqual({ critique: { approved: false, score: 0.3, feedback: "a says so", issues: ["x"], suggestions: [] }, members: [member("a", 0.3, false, ["x"])], disagreement: 0 });
  });
});

describe("CriticEnsemble", () => {
  it("asks every critic in order, each with its focus in the prompt", async () => {
    const { ask, calls } = scriptedAsk(["Score: 0.8\nAPPROVED", '{"approved": false, "score": 0.4, "feedback": "", "issues": ["bug"], "suggestions": []}']);
    const ensemble = new CriticEnsemble(criticPanel(2));
    const verdict = await ensemble.evaluate(ask, "Sort a list", "Use bubble sort.");
    expect(calls.map((call) => call.messages[0]?.content)).toEqual([
      expect.stringMatching(/^You are a strict but fair critic, focused on correctness\./),
      expect.stringMatching(/^You are a strict but fair critic, focused on completeness\./),
    ]);
    expect(calls[0]?.messages[1]?.content).toBe("TASK: Sort a list\n\nPROPOSAL TO EVALUATE:\nUse bubble sort.");
    expect(calls[0]?.options.sampler).toEqual({ temperature: 0.3, maxTokens: 1024 });
    expect(verdict.members.map((entry) => [entry.critic, entry.score, entry.approved])).toEqual([
      ["correctness", 0.8, true],
      ["completeness", 0.4, false],
    ]);
    expect(verdict.critique.score).toBeCloseTo(0.6, 12);
  });

  it("refuses an empty panel and critics sharing an id", () => {
    expect(() => new CriticEnsemble([])).toThrow(InvalidInputError);
    expect(() => new CriticEnsemble([new StandardCritic(), new StandardCritic()])).toThrow(/distinct ids/);
    expect(() => criticPanel(6)).toThrow(/critics: got 6/);
  });

  it("a WeightedCritic asks for aspect scores and reports their weighted mean", async () => {
    const reply = '{"approved": true, "scores": {"correctness": 1, "completeness": 0.5, "style": 0, "efficiency": 1}, "feedback": "", "issues": [], "suggestions": []}';
    const { ask, calls } = scriptedAsk([reply, reply]);
    const critique = await new WeightedCritic().evaluate(ask, "t", "p");
    expect(calls[0]?.messages[0]?.content).toContain('"scores": {"correctness"');
    expect(critique.score).toBeCloseTo(0.65, 12);
    const styleOnly = await new WeightedCritic({ weights: { correctness: 0, completeness: 0, style: 1, efficiency: 0 } }).evaluate(ask, "t", "p");
    expect(styleOnly.score).toBe(0);
    expect(() => new WeightedCritic({ weights: { correctness: -1, completeness: 0, style: 1, efficiency: 0 } })).toThrow(/weights\.correctness/);
  });
});
