import { describe, expect, it } from "vitest";
import { JudgeOutputError } from "../../../src/core/errors.js";
import type { Rewards } from "../../../src/core/schemas/generate-result.js";
import { ZeroSumJudgeVerifier, parseWinner } from "../../../src/core/verifiers/zero-sum-judge-verifier.js";
import { fakeScoringContext } from "../../helpers/fake-scoring-context.js";
import { makeRollout, makeStep } from "../../helpers/make-step.js";

const AFF_WINS = { rewards: { aff: 1, neg: -1 }, verdict: "aff" };
const NEG_WINS = { rewards: { aff: -1, neg: 1 }, verdict: "neg" };
const PARSE_ERROR = { error: 'expected "WINNER: aff" or "WINNER: neg"' };

function sum(rewards: Rewards): number {
  return Object.values(rewards).reduce((total, reward) => total + reward, 0);
}

describe("parseWinner", () => {
  it.each([
    ["WINNER: aff", AFF_WINS],
    ["winner = NEG", NEG_WINS],
    ["**WINNER:** aff", AFF_WINS],
    ["WINNER:aff", AFF_WINS],
    ["Both argued well.\nWinner: Neg\n", NEG_WINS],
    ["winner=neg, clearly", NEG_WINS],
  ])("reads %j", (reply, expected) => {
    expect(parseWinner(reply, "aff", "neg")).toEqual(expected);
  });

  it("takes the first WINNER line", () => {
    expect(parseWinner("WINNER: neg\nWINNER: aff", "aff", "neg")).toEqual(NEG_WINS);
  });

  it.each(["I think aff won", "", "WINNER: judge", "WINNER:", "the winner is aff", "WINNER: affirmative"])(
    "returns a parse error naming the allowed ids for %j",
    (reply) => {
      expect(parseWinner(reply, "aff", "neg")).toEqual(PARSE_ERROR);
    },
  );

  it("keys the rewards by the declared role ids, matching case-insensitively", () => {
    expect(parseWinner("winner: pro", "Pro", "Con")).toEqual({ rewards: { Pro: 1, Con: -1 }, verdict: "Pro" });
  });

  it("gives rewards that sum to 0 for either winner", () => {
    for (const reply of ["WINNER: aff", "WINNER: neg"]) {
      const parsed = parseWinner(reply, "aff", "neg");
      if (!("rewards" in parsed)) throw new Error(`did not parse ${reply}`);
      expect(sum(parsed.rewards)).toBe(0);
    }
  });
});

describe("ZeroSumJudgeVerifier", () => {
  const rollout = makeRollout({
    steps: [makeStep("aff", "Tides are caused by the moon."), makeStep("neg", "Tides are caused by wind.")],
  });

  it("asks with the transcript by default and scores +1/−1", async () => {
    const context = fakeScoringContext({ replies: ["WINNER: aff"] });
    const output = await new ZeroSumJudgeVerifier({ roleA: "aff", roleB: "neg" }).score(rollout, context);
    expect(output).toEqual({ rewards: { aff: 1, neg: -1 }, details: { verdict: "aff", judgeAttempts: 1 } });
    expect(sum(output.rewards)).toBe(0);
    expect(context.calls).toEqual([
      {
        messages: [
          {
            role: "system",
            content: 'You judge a contest between "aff" and "neg". Reply with exactly one line: WINNER: aff or WINNER: neg.',
          },
          { role: "user", content: "aff: Tides are caused by the moon.\n\nneg: Tides are caused by wind." },
        ],
        options: { sampler: { temperature: 0, maxTokens: 64 } },
      },
    ]);
  });

  it("retries an unparsable verdict with the reason", async () => {
    const context = fakeScoringContext({ replies: ["It's a tie.", "WINNER: neg"] });
    const output = await new ZeroSumJudgeVerifier({ roleA: "aff", roleB: "neg" }).score(rollout, context);
    expect(output).toEqual({ rewards: { aff: -1, neg: 1 }, details: { verdict: "neg", judgeAttempts: 2 } });
    expect(context.calls[1]?.messages.slice(-2)).toEqual([
      { role: "assistant", content: "It's a tie." },
      {
        role: "user",
        content: `That reply could not be used: ${PARSE_ERROR.error}. Answer again in the required format.`,
      },
    ]);
  });

  it("throws JudgeOutputError after maxAttempts", async () => {
    const context = fakeScoringContext({ replies: ["tie", "still a tie"] });
    await expect(
      new ZeroSumJudgeVerifier({ roleA: "aff", roleB: "neg", maxAttempts: 2 }).score(rollout, context),
    ).rejects.toThrow(JudgeOutputError);
    expect(context.calls).toHaveLength(2);
  });

  it("uses a custom prompt and sampler", async () => {
    const context = fakeScoringContext({ replies: ["WINNER: neg"] });
    const verifier = new ZeroSumJudgeVerifier({
      roleA: "aff",
      roleB: "neg",
      prompt: (received) => [{ role: "user", content: `who won ${received.id}?` }],
      sampler: { maxTokens: 8 },
    });
    await verifier.score(rollout, context);
    expect(context.calls).toEqual([
      { messages: [{ role: "user", content: "who won ep0?" }], options: { sampler: { temperature: 0, maxTokens: 8 } } },
    ]);
  });
});

describe("parseWinner with sentence punctuation", () => {
  it("accepts a verdict that ends with a period", () => {
    expect(parseWinner("WINNER: aff.", "aff", "neg")).toEqual({ rewards: { aff: 1, neg: -1 }, verdict: "aff" });
  });
});
