import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { debateArm, debateJudgingFigures } from "../../../benchmarks/debate-self-judge.js";
import { extractJson } from "../../../src/core/structured/extract-json.js";
import { zeroSumVerdictSchema } from "../../../src/core/verifiers/zero-sum-judge-verifier.js";
import { LlamaInferenceClient } from "../../../src/inference/llama/llama-inference-client.js";
import { openFrozenPolicies, type FrozenPolicies } from "../../../src/training/loop/open-frozen-policies.js";
import { TranscriptClient, type TranscriptEntry } from "../../helpers/transcript-client.js";
import { REAL_MODEL_SKIP_REASON, SMOLLM2_PATH, realModelAvailable } from "../real-model.js";

const JUDGE = /^You judge a debate\. Motion: /;
/** Each side's stance, as the judge is told it. */
const STANCE = { aff: "for", neg: "against" } as const;
/** The judge names the sides by position: "A" the one shown first, "B" the other. */
const VERDICT = zeroSumVerdictSchema("A", "B");
/** The debate's `judgeAttempts` (its default): calls an ask may take before the debate counts as unparsable. */
const JUDGE_ATTEMPTS = 3;

/** The label a raw judge output names, or undefined when it does not parse into a verdict. */
function verdictOf(text: string): string | undefined {
  try {
    const parsed = VERDICT.safeParse(extractJson(text));
    return parsed.success ? parsed.data.winner : undefined;
  } catch {
    return undefined;
  }
}

// Budget: about 30 s on 1 thread — two engines of SmolLM2 loaded, three one-round debates of up to 64 tokens a turn
// and two greedy verdicts each, one debate at a time.
describe(`a debate judged by its own policy on SmolLM2, against a frozen copy${REAL_MODEL_SKIP_REASON}`, () => {
  let policy: TranscriptClient;
  let frozen: FrozenPolicies;
  let opponent: TranscriptClient;

  beforeAll(async () => {
    if (!realModelAvailable) return;
    // One thread each: the real project runs beside other work.
    policy = new TranscriptClient(await LlamaInferenceClient.create({ modelPath: SMOLLM2_PATH, sequences: 2, contextSize: 512, threads: 1 }));
    frozen = await openFrozenPolicies({ neg: "base" }, SMOLLM2_PATH, 2, 512, "auto", 1);
    opponent = new TranscriptClient(frozen.roleClients["neg"]!);
  });

  afterAll(async () => {
    await frozen?.dispose();
    await policy?.dispose();
  });

  it.skipIf(!realModelAvailable)("asks each verdict in both orders, reads every raw verdict or counts it unparsable, and computes the figures from them", async () => {
    // One debate at a time, so the policy's calls come in debate order: aff's turn, then the judge's asks.
    const { results, figures } = await debateArm(policy, { debates: 3, seed: 5, concurrency: 1, opponent });
    expect(figures.failed).toBe(0);

    // The seats: aff by the policy, neg by the frozen copy, which never judges.
    const judgeCalls = policy.entries.filter((entry) => JUDGE.test(entry.request.messages[0]?.content ?? ""));
    expect(opponent.entries.map((entry) => entry.request.messages)).toEqual(results.map((result) => result.rollout.steps.find((step) => step.roleId === "neg")!.prompt));
    expect(policy.entries.filter((entry) => !judgeCalls.includes(entry)).map((entry) => entry.request.messages)).toEqual(
      results.map((result) => result.rollout.steps.find((step) => step.roleId === "aff")!.prompt),
    );

    // Count from the raw outputs: each debate's judge calls, aff shown first and then neg first.
    let cursor = 0;
    const counted = { asks: 0, aff: 0, firstShown: 0, survived: 0, judged: 0, unparsable: 0, invalid: 0 };
    for (const result of results) {
      const [aff, neg] = ["aff", "neg"].map((roleId) => result.rollout.steps.find((step) => step.roleId === roleId)!.completion[0]!.content) as [string, string];
      // The motion the judge is told is the one the debaters were shown.
      const { topic } = result.rollout.artifact as { topic: string };
      expect(result.rollout.steps[0]!.prompt[1]).toEqual({ role: "user", content: `Motion: ${topic}` });
      const verdicts: string[] = [];
      const labels: string[] = [];
      for (const [first, second, transcript] of [["aff", "neg", `A: ${aff}\n\nB: ${neg}`], ["neg", "aff", `A: ${neg}\n\nB: ${aff}`]] as const) {
        // The swap: the same motion and labels, the other side called A, its stance stated first and its turn read first.
        const instruction = `You judge a debate. Motion: ${topic}\n"A" argues ${STANCE[first]} it, "B" ${STANCE[second]} it. Who argued better? Reply {"winner": "A"} or {"winner": "B"}.`;
        const asked: TranscriptEntry[] = [];
        while (asked.length < JUDGE_ATTEMPTS && cursor < judgeCalls.length && judgeCalls[cursor]!.request.messages[0]!.content === instruction) {
          asked.push(judgeCalls[cursor++]!);
          if (verdictOf(asked[asked.length - 1]!.text) !== undefined) break;
        }
        expect(asked.length).toBeGreaterThan(0);
        for (const entry of asked) {
          expect(entry.request.messages).toEqual([
            { role: "system", content: instruction },
            { role: "user", content: transcript },
          ]);
          // Greedy, and constrained to the two labels where the client can: SmolLM2's engine can.
          expect(entry.request.sampler.temperature).toBe(0);
          expect(entry.request.constraint).toMatchObject({ kind: "json-schema", schema: { properties: { winner: { enum: ["A", "B"] } } } });
        }
        const read = asked.map((entry) => verdictOf(entry.text));
        counted.invalid += read.filter((label) => label === undefined).length;
        const label = read[read.length - 1];
        if (label === undefined) break;
        // A names the side shown first in this ask.
        labels.push(label);
        verdicts.push(label === "A" ? first : second);
      }
      if (verdicts.length < 2) {
        counted.unparsable++;
        expect(result.outcome).toMatchObject({ status: "failed", stage: "score", error: { name: "StructuredOutputError" } });
        continue;
      }
      expect(result.outcome).toEqual({ status: "scored" });
      expect(result.scoreDetails.verdicts).toEqual(verdicts);
      const [first, swapped] = verdicts as [string, string];
      expect(result.scoreDetails.verdict).toBe(first === swapped ? first : "tie");
      counted.judged++;
      counted.asks += 2;
      counted.aff += verdicts.filter((verdict) => verdict === "aff").length;
      counted.firstShown += labels.filter((label) => label === "A").length;
      counted.survived += Number(first === swapped);
    }
    expect(cursor).toBe(judgeCalls.length);

    const share = (count: number, of: number) => (of === 0 ? null : count / of);
    expect(figures).toMatchObject({
      debates: 3,
      judged: counted.judged,
      unparsable: counted.unparsable,
      asks: counted.asks,
      invalidAttempts: counted.invalid,
      survivedSwap: share(counted.survived, counted.judged),
      affShare: share(counted.aff, counted.asks),
      firstShownShare: share(counted.firstShown, counted.asks),
    });
    expect(figures.outcomes.aff + figures.outcomes.neg + figures.outcomes.tie).toBe(counted.judged);
    expect(figures.outcomes.tie).toBe(counted.judged - counted.survived);
    expect(debateJudgingFigures(results)).toEqual(figures);
  });
});
