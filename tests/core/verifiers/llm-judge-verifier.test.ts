import { describe, expect, it } from "vitest";
import { InvalidInputError, JudgeOutputError } from "../../../src/core/errors/index.js";
import type { Messages } from "../../../src/core/schemas/message.js";
import type { Rollout } from "../../../src/core/schemas/rollout.js";
import { LLMJudgeVerifier, type JudgeParse } from "../../../src/core/verifiers/llm-judge-verifier.js";
import { fakeScoringContext } from "../../helpers/fake-scoring-context.js";
import { makeRollout, makeStep } from "../../helpers/make-step.js";

const PROMPT: Messages = [
  { role: "system", content: "Score the answer from 0 to 10. Reply SCORE: <n>." },
  { role: "user", content: "answer: 42" },
];

/** Parses `SCORE: n` into the writer's reward n/10. */
function parseScore(reply: string): JudgeParse {
  const match = /SCORE:\s*(\d+)/.exec(reply);
  if (!match) return { error: "no SCORE line" };
  return { rewards: { writer: Number(match[1]) / 10 }, verdict: `score ${match[1]}` };
}

const rollout = makeRollout({ id: "ep3", steps: [makeStep("writer", "42")] });

describe("LLMJudgeVerifier", () => {
  it("asks once, greedily with at most 64 tokens, when the first reply parses", async () => {
    const context = fakeScoringContext({ replies: ["SCORE: 7"] });
    const verifier = new LLMJudgeVerifier({ prompt: () => PROMPT, parse: parseScore });
    expect(await verifier.score(rollout, context)).toEqual({
      rewards: { writer: 0.7 },
      details: { verdict: "score 7", judgeAttempts: 1 },
    });
    expect(context.calls).toEqual([{ messages: PROMPT, options: { sampler: { temperature: 0, maxTokens: 64 } } }]);
  });

  it("passes the rollout to prompt and parse", async () => {
    const seen: Rollout[] = [];
    const verifier = new LLMJudgeVerifier({
      prompt: (received) => {
        seen.push(received);
        return [{ role: "user", content: `judge ${received.id}` }];
      },
      parse: (reply, received) => {
        seen.push(received);
        return parseScore(reply);
      },
    });
    const context = fakeScoringContext({ replies: ["SCORE: 1"] });
    await verifier.score(rollout, context);
    expect(seen).toEqual([rollout, rollout]);
    expect(context.calls[0]?.messages).toEqual([{ role: "user", content: "judge ep3" }]);
  });

  it("retries an unparsable reply with the reason appended, at the retry temperature", async () => {
    const context = fakeScoringContext({ replies: ["I like it", "SCORE: 9"] });
    const verifier = new LLMJudgeVerifier({ prompt: () => PROMPT, parse: parseScore });
    expect(await verifier.score(rollout, context)).toEqual({
      rewards: { writer: 0.9 },
      details: { verdict: "score 9", judgeAttempts: 2 },
    });
    expect(context.calls).toHaveLength(2);
    expect(context.calls[1]).toEqual({
      messages: [
        ...PROMPT,
        { role: "assistant", content: "I like it" },
        { role: "user", content: "That reply could not be used: no SCORE line. Answer again in the required format." },
      ],
      options: { sampler: { maxTokens: 64, temperature: 0.7 } },
    });
  });

  it("does not modify the conversation the prompt function returned", async () => {
    const prompt: Messages = [{ role: "user", content: "judge" }];
    const context = fakeScoringContext({ replies: ["?", "SCORE: 1"] });
    await new LLMJudgeVerifier({ prompt: () => prompt, parse: parseScore }).score(rollout, context);
    expect(prompt).toEqual([{ role: "user", content: "judge" }]);
  });

  it("throws JudgeOutputError after maxAttempts unparsable replies (default 3)", async () => {
    const context = fakeScoringContext({ replies: ["one", "two", "three"] });
    const score = new LLMJudgeVerifier({ prompt: () => PROMPT, parse: parseScore }).score(rollout, context);
    const error = await score.then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(JudgeOutputError);
    expect((error as JudgeOutputError).attempts).toBe(3);
    expect((error as JudgeOutputError).lastOutput).toBe("three");
    expect((error as JudgeOutputError).message).toContain("no SCORE line");
    expect(context.calls).toHaveLength(3);
    // Each retry carries the whole history of failed replies.
    expect(context.calls[2]?.messages).toEqual([
      ...PROMPT,
      { role: "assistant", content: "one" },
      { role: "user", content: "That reply could not be used: no SCORE line. Answer again in the required format." },
      { role: "assistant", content: "two" },
      { role: "user", content: "That reply could not be used: no SCORE line. Answer again in the required format." },
    ]);
  });

  it("honours a custom maxAttempts", async () => {
    const once = fakeScoringContext({ replies: ["nope"] });
    await expect(
      new LLMJudgeVerifier({ prompt: () => PROMPT, parse: parseScore, maxAttempts: 1 }).score(rollout, once),
    ).rejects.toThrow(JudgeOutputError);
    expect(once.calls).toHaveLength(1);

    const five = fakeScoringContext({ replies: ["a", "b", "c", "d", "SCORE: 3"] });
    const output = await new LLMJudgeVerifier({ prompt: () => PROMPT, parse: parseScore, maxAttempts: 5 }).score(
      rollout,
      five,
    );
    expect(output.details).toEqual({ verdict: "score 3", judgeAttempts: 5 });
  });

  it("uses the sampler option on the first attempt and retryTemperature on retries", async () => {
    const context = fakeScoringContext({ replies: ["x", "y", "SCORE: 2"] });
    const verifier = new LLMJudgeVerifier({
      prompt: () => PROMPT,
      parse: parseScore,
      sampler: { maxTokens: 16, topK: 5 },
      retryTemperature: 1.2,
    });
    await verifier.score(rollout, context);
    expect(context.calls.map((call) => call.options)).toEqual([
      { sampler: { temperature: 0, maxTokens: 16, topK: 5 } },
      { sampler: { maxTokens: 16, topK: 5, temperature: 1.2 } },
      { sampler: { maxTokens: 16, topK: 5, temperature: 1.2 } },
    ]);
  });

  it("lets the sampler option set the first attempt's temperature, but not the retries'", async () => {
    const context = fakeScoringContext({ replies: ["x", "SCORE: 2"] });
    await new LLMJudgeVerifier({ prompt: () => PROMPT, parse: parseScore, sampler: { temperature: 0.3 } }).score(
      rollout,
      context,
    );
    expect(context.calls.map((call) => call.options?.sampler?.temperature)).toEqual([0.3, 0.7]);
  });

  it("propagates an error thrown by the judge", async () => {
    const context = fakeScoringContext({ replies: [] });
    await expect(new LLMJudgeVerifier({ prompt: () => PROMPT, parse: parseScore }).score(rollout, context)).rejects.toThrow(
      /no scripted reply/,
    );
  });

  it.each([0, -1, 1.5, Number.NaN])("rejects maxAttempts %s with InvalidInputError", (maxAttempts) => {
    expect(() => new LLMJudgeVerifier({ prompt: () => PROMPT, parse: parseScore, maxAttempts })).toThrow(
      InvalidInputError,
    );
  });
});
