import { describe, expect, it } from "vitest";
import { debateArm } from "../../benchmarks/debate-self-judge.js";
import type { GenerationRequest } from "../../src/core/inference-client.js";
import { ScriptedInferenceClient, type ScriptedRule } from "../../src/inference/scripted-inference-client.js";

const transcriptOf = (request: GenerationRequest) => request.messages[1]?.content ?? "";
const judge = (reply: ScriptedRule["reply"]): ScriptedRule => ({ when: /^system: You judge a debate/, reply });
const debaters: ScriptedRule[] = [
  { when: /^system: You argue FOR/, reply: "The evidence favours it." },
  { when: /^system: You argue AGAINST/, reply: "It breaks in practice." },
];
const arm = { debates: 4, seed: 3, concurrency: 2 };

describe("benchmarks/debate-self-judge's figures", () => {
  it("of a judge that names the side shown first: no verdict survives the swap, every ask the first side, half of them aff", async () => {
    const firstShown = judge((request) => JSON.stringify({ winner: /^(\w+):/.exec(transcriptOf(request))?.[1] }));
    const { figures } = await debateArm(new ScriptedInferenceClient({ rules: [firstShown, ...debaters] }), arm);
    expect(figures).toEqual({
      debates: 4, judged: 4, unparsable: 0, failed: 0, asks: 8, invalidAttempts: 0,
      survivedSwap: 0, affShare: 0.5, firstShownShare: 1, outcomes: { aff: 0, neg: 0, tie: 4 },
    });
  });

  it("of a judge that always answers the second label: no verdict survives the swap, no ask the side shown first, half of them aff", async () => {
    const { figures } = await debateArm(new ScriptedInferenceClient({ rules: [judge('{"winner": "B"}'), ...debaters] }), arm);
    expect(figures).toMatchObject({ judged: 4, asks: 8, survivedSwap: 0, affShare: 0.5, firstShownShare: 0, outcomes: { aff: 0, neg: 0, tie: 4 } });
  });

  it("of a judge that always names aff's argument, wherever it is shown: every verdict survives, all aff, half of the asks the side shown first", async () => {
    const evidence = judge((request) => JSON.stringify({ winner: /(\w+): The evidence/.exec(transcriptOf(request))?.[1] }));
    const { figures } = await debateArm(new ScriptedInferenceClient({ rules: [evidence, ...debaters] }), arm);
    expect(figures).toMatchObject({ judged: 4, asks: 8, survivedSwap: 1, affShare: 1, firstShownShare: 0.5, outcomes: { aff: 4, neg: 0, tie: 0 } });
  });

  it("count a swapped ask that never parses as unparsable, every attempt invalid, and leave the debate out of the shares", async () => {
    const malformedWhenSwapped = judge((request) => (request.messages[0]!.content.includes('"A" argues against') ? "Both sides argued well." : '{"winner": "B"}'));
    const { results, figures } = await debateArm(new ScriptedInferenceClient({ rules: [malformedWhenSwapped, ...debaters] }), arm);
    for (const result of results) expect(result.outcome).toMatchObject({ status: "failed", stage: "score", error: { name: "StructuredOutputError" } });
    // Three attempts (the debate's judgeAttempts) at each swapped ask.
    expect(figures).toEqual({
      debates: 4, judged: 0, unparsable: 4, failed: 0, asks: 0, invalidAttempts: 12,
      survivedSwap: null, affShare: null, firstShownShare: null, outcomes: { aff: 0, neg: 0, tie: 0 },
    });
  });

  it("seat neg on the opponent's client in the frozen arm, the policy keeping aff and the judge", async () => {
    const policy = new ScriptedInferenceClient({ rules: [judge('{"winner": "A"}'), debaters[0]!] });
    const opponent = new ScriptedInferenceClient({ rules: [debaters[1]!] });
    const { results } = await debateArm(policy, { ...arm, opponent });
    expect(results.every((result) => result.outcome.status === "scored")).toBe(true);
    expect(opponent.requests.map((request) => request.messages[0]!.content)).toEqual(Array(4).fill("You argue AGAINST the motion. Be brief and concrete."));
    expect(policy.requests.filter((request) => request.messages[0]!.content.startsWith("You judge"))).toHaveLength(8);
  });
});
