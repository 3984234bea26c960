import { describe, expect, it } from "vitest";
import { StructuredOutputError } from "../../../src/core/errors/index.js";
import type { Rewards } from "../../../src/core/schemas/generate-result.js";
import { jsonSchemaConstraint } from "../../../src/core/structured/json-schema-constraint.js";
import { ZeroSumJudgeVerifier, zeroSumVerdictSchema } from "../../../src/core/verifiers/zero-sum-judge-verifier.js";
import { fakeScoringContext } from "../../helpers/fake-scoring-context.js";
import { makeRollout, makeStep } from "../../helpers/make-step.js";

function sum(rewards: Rewards): number {
  return Object.values(rewards).reduce((total, reward) => total + reward, 0);
}

describe("zeroSumVerdictSchema", () => {
  it.each([
    ['{"winner": "aff"}', true],
    ['{"winner":"neg"}', true],
    ['{"winner": "judge"}', false],
    ['{"winner": "AFF"}', false],
    ['{"winner": "aff", "reason": "x"}', false],
    ["{}", false],
  ])("%s is a verdict: %s", (text, valid) => {
    expect(zeroSumVerdictSchema("aff", "neg").safeParse(JSON.parse(text)).success).toBe(valid);
  });

  it("becomes a grammar that allows exactly the two role ids", () => {
    expect(jsonSchemaConstraint(zeroSumVerdictSchema("aff", "neg"))).toMatchObject({
      kind: "json-schema",
      schema: { properties: { winner: { enum: ["aff", "neg"] } }, required: ["winner"] },
    });
  });
});

describe("ZeroSumJudgeVerifier", () => {
  const rollout = makeRollout({
    steps: [makeStep("aff", "Tides are caused by the moon."), makeStep("neg", "Tides are caused by wind.")],
  });

  it("asks with the transcript by default and scores +1/−1", async () => {
    const context = fakeScoringContext({ replies: ['{"winner": "aff"}'] });
    const output = await new ZeroSumJudgeVerifier({ roleA: "aff", roleB: "neg" }).score(rollout, context);
    expect(output).toEqual({ rewards: { aff: 1, neg: -1 }, details: { verdict: "aff", judgeAttempts: 1 } });
    expect(sum(output.rewards)).toBe(0);
    expect(context.calls).toEqual([
      {
        messages: [
          {
            role: "system",
            content: 'You judge a contest between "aff" and "neg". Reply with JSON only: {"winner": "aff"} or {"winner": "neg"}.',
          },
          { role: "user", content: "aff: Tides are caused by the moon.\n\nneg: Tides are caused by wind." },
        ],
        options: { sampler: { temperature: 0, maxTokens: 64 }, maxAttempts: 3 },
      },
    ]);
  });

  it("resamples a reply that is not a verdict, with the same prompt", async () => {
    const context = fakeScoringContext({ replies: ["It's a tie.", 'Verdict: {"winner": "neg"}'] });
    const output = await new ZeroSumJudgeVerifier({ roleA: "aff", roleB: "neg" }).score(rollout, context);
    expect(output).toEqual({ rewards: { aff: -1, neg: 1 }, details: { verdict: "neg", judgeAttempts: 2 } });
    expect(sum(output.rewards)).toBe(0);
    expect(context.calls[1]?.messages).toEqual(context.calls[0]?.messages);
  });

  it("throws StructuredOutputError after maxAttempts", async () => {
    const context = fakeScoringContext({ replies: ["tie", '{"winner": "both"}'] });
    await expect(new ZeroSumJudgeVerifier({ roleA: "aff", roleB: "neg", maxAttempts: 2 }).score(rollout, context)).rejects.toThrow(StructuredOutputError);
    expect(context.calls).toHaveLength(2);
  });

  it("uses a custom prompt and sampler", async () => {
    const context = fakeScoringContext({ replies: ['{"winner": "neg"}'] });
    const verifier = new ZeroSumJudgeVerifier({
      roleA: "aff",
      roleB: "neg",
      prompt: (received) => [{ role: "user", content: `who won ${received.id}?` }],
      sampler: { maxTokens: 8 },
    });
    await verifier.score(rollout, context);
    expect(context.calls).toEqual([{ messages: [{ role: "user", content: "who won ep0?" }], options: { sampler: { temperature: 0, maxTokens: 8 }, maxAttempts: 3 } }]);
  });
});
