import { describe, expect, it } from "vitest";
import { InvalidInputError, StructuredOutputError } from "../../../src/core/errors/index.js";
import type { Rewards } from "../../../src/core/schemas/generate-result.js";
import type { Messages } from "../../../src/core/schemas/message.js";
import type { ScoringContext } from "../../../src/core/verifiers/verifier.js";
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

  it("asks once with the transcript (orders: one), the sides named A and B as shown, and scores the role named +1/−1", async () => {
    const context = fakeScoringContext({ replies: ['{"winner": "A"}'] });
    const output = await new ZeroSumJudgeVerifier({ roleA: "aff", roleB: "neg", orders: "one" }).score(rollout, context);
    expect(output).toEqual({ rewards: { aff: 1, neg: -1 }, details: { verdict: "aff", judgeAttempts: 1 } });
    expect(sum(output.rewards)).toBe(0);
    expect(context.calls).toEqual([
      {
        messages: [
          {
            role: "system",
            content: 'You judge a contest between "A" and "B". Reply with JSON only: {"winner": "A"} or {"winner": "B"}.',
          },
          { role: "user", content: "A: Tides are caused by the moon.\n\nB: Tides are caused by wind." },
        ],
        options: { sampler: { temperature: 0, maxTokens: 64 }, maxAttempts: 3 },
      },
    ]);
  });

  it("resamples a reply that is not a verdict, with the same prompt", async () => {
    const context = fakeScoringContext({ replies: ["It's a tie.", 'Verdict: {"winner": "B"}'] });
    const output = await new ZeroSumJudgeVerifier({ roleA: "aff", roleB: "neg", orders: "one" }).score(rollout, context);
    expect(output).toEqual({ rewards: { aff: -1, neg: 1 }, details: { verdict: "neg", judgeAttempts: 2 } });
    expect(sum(output.rewards)).toBe(0);
    expect(context.calls[1]?.messages).toEqual(context.calls[0]?.messages);
  });

  it("throws StructuredOutputError after maxAttempts", async () => {
    const context = fakeScoringContext({ replies: ["tie", '{"winner": "both"}'] });
    await expect(new ZeroSumJudgeVerifier({ roleA: "aff", roleB: "neg", maxAttempts: 2 }).score(rollout, context)).rejects.toThrow(StructuredOutputError);
    expect(context.calls).toHaveLength(2);
  });

  it("uses a custom prompt and sampler, telling the prompt each side's label", async () => {
    const context = fakeScoringContext({ replies: ['{"winner": "B"}'] });
    const verifier = new ZeroSumJudgeVerifier({
      roleA: "aff",
      roleB: "neg",
      orders: "one",
      prompt: (received, order, labels) => [{ role: "user", content: `who won ${received.id}, ${order.join(" or ")} (${labels.join(" or ")})?` }],
      sampler: { maxTokens: 8 },
    });
    expect((await verifier.score(rollout, context)).details).toEqual({ verdict: "neg", judgeAttempts: 1 });
    expect(context.calls).toEqual([{ messages: [{ role: "user", content: "who won ep0, aff or neg (A or B)?" }], options: { sampler: { temperature: 0, maxTokens: 8 }, maxAttempts: 3 } }]);
  });

  it("keeps a two-argument prompt of role ids working with labels: roles", async () => {
    const context = fakeScoringContext({ replies: ['{"winner": "neg"}'] });
    const verifier = new ZeroSumJudgeVerifier({ roleA: "aff", roleB: "neg", orders: "one", labels: "roles", prompt: (_received, order) => [{ role: "user", content: order.join(" or ") }] });
    expect(await verifier.score(rollout, context)).toEqual({ rewards: { aff: -1, neg: 1 }, details: { verdict: "neg", judgeAttempts: 1 } });
    expect(context.calls[0]?.messages).toEqual([{ role: "user", content: "aff or neg" }]);
  });
});

/** A judge that reads positions, not content: it names whichever side its transcript presents first (by its label there). */
const firstPresented = (messages: Messages) => JSON.stringify({ winner: /^(\w+):/.exec(messages[1]?.content ?? "")?.[1] });
/** A judge that reads content: it names the side that blames the moon, wherever it is shown and whatever it is called. */
const moonReader = (messages: Messages) => JSON.stringify({ winner: /(\w+): [^\n]*moon/.exec(messages[1]?.content ?? "")?.[1] });

/** A ScoringContext whose judge (and, with `policy`, the policy as judge) answers each call with `reply(messages)`. */
function readingContext(judge: (messages: Messages) => string, policy?: (messages: Messages) => string) {
  const asked = { judge: [] as Messages[], policy: [] as Messages[] };
  const answering = (who: keyof typeof asked, reply: (messages: Messages) => string): ScoringContext["judgeObject"] =>
    async (messages, schema) => {
      asked[who].push(messages);
      const text = reply(messages);
      return { value: schema.parse(JSON.parse(text)), text, attempts: 1 };
    };
  const context: ScoringContext = {
    children: [],
    judge: async () => {
      throw new Error("the zero-sum judge asks through judgeObject");
    },
    judgeObject: answering("judge", judge),
    ...(policy && { policyJudgeObject: answering("policy", policy) }),
  };
  return { context, asked };
}

describe("ZeroSumJudgeVerifier asked in both orders (the default)", () => {
  const debate = makeRollout({
    steps: [makeStep("aff", "The moon pulls the sea."), makeStep("neg", "Wind does."), makeStep("aff", "Tides follow the moon."), makeStep("neg", "Storms.")],
  });
  const verifier = new ZeroSumJudgeVerifier({ roleA: "aff", roleB: "neg" });

  it("asks the second time with the sides swapped: each round's turns in the other order, the side shown first called A again", async () => {
    const { context, asked } = readingContext(moonReader);
    await verifier.score(debate, context);
    const instruction = { role: "system", content: 'You judge a contest between "A" and "B". Reply with JSON only: {"winner": "A"} or {"winner": "B"}.' };
    expect(asked.judge).toEqual([
      [instruction, { role: "user", content: "A: The moon pulls the sea.\n\nB: Wind does.\n\nA: Tides follow the moon.\n\nB: Storms." }],
      [instruction, { role: "user", content: "A: Wind does.\n\nB: The moon pulls the sea.\n\nA: Storms.\n\nB: Tides follow the moon." }],
    ]);
  });

  it("ties a judge that always answers the second label: B is neg in the first ask and aff in the swapped one, 0 to each and positionConsistent false", async () => {
    const { context } = readingContext(() => '{"winner": "B"}');
    expect(await verifier.score(debate, context)).toEqual({
      rewards: { aff: 0, neg: 0 },
      details: { verdict: "tie", judgeAttempts: 2, verdicts: ["neg", "aff"], positionConsistent: false },
    });
  });

  it("neutralises a judge that names the side presented first: a tie, 0 to each, and positionConsistent false", async () => {
    const { context } = readingContext(firstPresented);
    expect(await verifier.score(debate, context)).toEqual({
      rewards: { aff: 0, neg: 0 },
      details: { verdict: "tie", judgeAttempts: 2, verdicts: ["aff", "neg"], positionConsistent: false },
    });
  });

  it("keeps a verdict that follows the content: +1/−1 and positionConsistent true", async () => {
    const { context } = readingContext(moonReader);
    const output = await verifier.score(debate, context);
    expect(output).toEqual({ rewards: { aff: 1, neg: -1 }, details: { verdict: "aff", judgeAttempts: 2, verdicts: ["aff", "aff"], positionConsistent: true } });
    expect(sum(output.rewards)).toBe(0);
  });

  it("adds up the attempts of both asks", async () => {
    // B in the first ask and A in the swapped one: neg both times.
    const context = fakeScoringContext({ replies: ["tie", '{"winner": "B"}', '{"winner": "A"}'] });
    const output = await verifier.score(debate, context);
    expect(output.details).toEqual({ verdict: "neg", judgeAttempts: 3, verdicts: ["neg", "neg"], positionConsistent: true });
  });

  it("beside a separate judge, asks the policy the same two questions and records whether it agrees (never changing the rewards)", async () => {
    const { context, asked } = readingContext(moonReader, firstPresented);
    expect(await verifier.score(debate, context)).toEqual({
      rewards: { aff: 1, neg: -1 },
      details: { verdict: "aff", judgeAttempts: 2, verdicts: ["aff", "aff"], positionConsistent: true, policyVerdict: "tie", judgeAgreement: false },
    });
    expect(asked.policy).toEqual(asked.judge);
    const agreeing = readingContext(moonReader, moonReader).context;
    expect((await verifier.score(debate, agreeing)).details).toMatchObject({ policyVerdict: "aff", judgeAgreement: true });
    // Two ties agree: neither judge found a winner.
    const tied = readingContext(firstPresented, firstPresented).context;
    expect((await verifier.score(debate, tied)).details).toMatchObject({ verdict: "tie", policyVerdict: "tie", judgeAgreement: true });
  });

  it("asks the policy nothing with compareWithPolicy: false, and once with orders: one", async () => {
    const quiet = readingContext(moonReader, firstPresented);
    const output = await new ZeroSumJudgeVerifier({ roleA: "aff", roleB: "neg", compareWithPolicy: false }).score(debate, quiet.context);
    expect(output.details).not.toHaveProperty("judgeAgreement");
    expect(quiet.asked.policy).toEqual([]);
    const once = readingContext(firstPresented, moonReader);
    const single = await new ZeroSumJudgeVerifier({ roleA: "aff", roleB: "neg", orders: "one" }).score(debate, once.context);
    // One order cannot see the bias: the first side presented wins.
    expect(single).toEqual({ rewards: { aff: 1, neg: -1 }, details: { verdict: "aff", judgeAttempts: 1, policyVerdict: "aff", judgeAgreement: true } });
    expect([once.asked.judge.length, once.asked.policy.length]).toEqual([1, 1]);
  });

  it("refuses an unknown orders or labels value, naming the field", () => {
    expect(() => new ZeroSumJudgeVerifier({ roleA: "aff", roleB: "neg", orders: "three" as never })).toThrow(InvalidInputError);
    expect(() => new ZeroSumJudgeVerifier({ roleA: "aff", roleB: "neg", orders: "three" as never })).toThrow(/orders/);
    expect(() => new ZeroSumJudgeVerifier({ roleA: "aff", roleB: "neg", labels: "letters" as never })).toThrow(/labels: .*"positions" or "roles"/);
  });
});

describe("ZeroSumJudgeVerifier naming the sides by their role ids (labels: roles)", () => {
  const debate = makeRollout({ steps: [makeStep("aff", "The moon pulls the sea."), makeStep("neg", "Wind does.")] });
  const verifier = new ZeroSumJudgeVerifier({ roleA: "aff", roleB: "neg", labels: "roles" });

  it("names the ids in the instruction, the reply format and the transcript, in each ask's order; the verdict's enum is the ids", async () => {
    const { context, asked } = readingContext(moonReader);
    expect((await verifier.score(debate, context)).details).toEqual({ verdict: "aff", judgeAttempts: 2, verdicts: ["aff", "aff"], positionConsistent: true });
    expect(asked.judge).toEqual([
      [
        { role: "system", content: 'You judge a contest between "aff" and "neg". Reply with JSON only: {"winner": "aff"} or {"winner": "neg"}.' },
        { role: "user", content: "aff: The moon pulls the sea.\n\nneg: Wind does." },
      ],
      [
        { role: "system", content: 'You judge a contest between "neg" and "aff". Reply with JSON only: {"winner": "neg"} or {"winner": "aff"}.' },
        { role: "user", content: "neg: Wind does.\n\naff: The moon pulls the sea." },
      ],
    ]);
  });

  it("lets a judge that always names one id survive the swap and pay that role (the label bias positions tie)", async () => {
    const { context } = readingContext(() => '{"winner": "neg"}');
    expect(await verifier.score(debate, context)).toEqual({
      rewards: { aff: -1, neg: 1 },
      details: { verdict: "neg", judgeAttempts: 2, verdicts: ["neg", "neg"], positionConsistent: true },
    });
  });
});
