import { describe, expect, it } from "vitest";
import { Arena } from "../../../src/arena/arena.js";
import { ArtifactStore } from "../../../src/arena/artifact-store.js";
import type { GenerationRequest } from "../../../src/core/inference-client.js";
import { judgingFigures } from "../../../src/core/verifiers/judging-figures.js";
import { ScriptedInferenceClient, type ScriptedRule } from "../../../src/inference/scripted-inference-client.js";
import { DebateEpisode, type DebateEpisodeOptions } from "../../../src/tasks/debate/debate-episode.js";

const transcriptOf = (request: GenerationRequest) => request.messages[1]?.content ?? "";
/** Names whichever side its transcript presents first (by its label there): all position, no content. */
const firstPresentedJudge: ScriptedRule = { when: /^system: You judge/, reply: (request) => JSON.stringify({ winner: /^(\w+):/.exec(transcriptOf(request))?.[1] }) };
/** Names the side that cites evidence, wherever it is presented and whatever it is called. */
const evidenceJudge: ScriptedRule = { when: /^system: You judge/, reply: (request) => JSON.stringify({ winner: /(\w+): [^\n]*evidence/.exec(transcriptOf(request))?.[1] }) };
const debaters: ScriptedRule[] = [
  { when: /^system: You argue FOR/, reply: "The evidence favours it." },
  { when: /^system: You argue AGAINST/, reply: "It breaks in practice." },
];

async function debate(client: ScriptedInferenceClient, options: DebateEpisodeOptions = {}, judgeClient?: ScriptedInferenceClient) {
  const arena = new Arena({ client, ...(judgeClient && { judgeClient }), seed: 11 }).register(
    new DebateEpisode({ rounds: 2, ...options }),
    ArtifactStore.of([{ topic: "Tabs are better than spaces." }]),
  );
  const results = await arena.generateRollouts(arena.getBatch([{ episodeType: "debate", count: 2, groupSize: 3 }]));
  const batch = arena.buildTrainingBatch(results, arena.assignCredit(results), 0);
  return { results, batch };
}

describe("the debate's judge, asked with the sides in both orders", () => {
  it("neutralises a judge that names the side presented first: every debate a tie, rewards 0, no advantage, position consistency 0", async () => {
    const client = new ScriptedInferenceClient({ rules: [firstPresentedJudge, ...debaters] });
    const { results, batch } = await debate(client);
    for (const result of results) {
      expect(result.outcome).toEqual({ status: "scored" });
      expect(result.rewards).toEqual({ aff: 0, neg: 0 });
      expect(result.scoreDetails).toEqual({ verdict: "tie", verdicts: ["aff", "neg"], positionConsistent: false, judgeAttempts: 2 });
      expect(result.judgeCalls).toBe(2);
    }
    expect(judgingFigures(results)).toEqual({ positionConsistency: 0, swappedVerdicts: 6, judgeAgreement: null, comparedVerdicts: 0 });
    expect(batch.records.every((record) => record.advantage === 0)).toBe(true);
    // The swapped ask calls neg A, states its stance first and shows its turns first, round by round.
    const swapped = client.requests.filter((request) => request.messages[0]?.content.includes('"A" argues against it'));
    expect(swapped).toHaveLength(6);
    expect(transcriptOf(swapped[0]!)).toBe("A: It breaks in practice.\n\nB: The evidence favours it.\n\nA: It breaks in practice.\n\nB: The evidence favours it.");
  });

  it("ties every debate of a judge that always answers the second label (B is neg, then aff), where role-id labels let one that always names neg pay neg every debate", async () => {
    const secondLabel: ScriptedRule = { when: /^system: You judge/, reply: '{"winner": "B"}' };
    const { results } = await debate(new ScriptedInferenceClient({ rules: [secondLabel, ...debaters] }));
    for (const result of results) {
      expect(result.rewards).toEqual({ aff: 0, neg: 0 });
      expect(result.scoreDetails).toEqual({ verdict: "tie", verdicts: ["neg", "aff"], positionConsistent: false, judgeAttempts: 2 });
    }
    expect(judgingFigures(results)?.positionConsistency).toBe(0);
    // The same bias under judgeLabels "roles" passes the swap: what SmolLM2-135M-Instruct did in 128 of 128 asks.
    const alwaysNeg: ScriptedRule = { when: /^system: You judge/, reply: '{"winner": "neg"}' };
    const { results: byRole } = await debate(new ScriptedInferenceClient({ rules: [alwaysNeg, ...debaters] }), { judgeLabels: "roles" });
    for (const result of byRole) expect([result.rewards, result.scoreDetails.positionConsistent]).toEqual([{ aff: -1, neg: 1 }, true]);
    expect(judgingFigures(byRole)?.positionConsistency).toBe(1);
  });

  it("tells the judge each debate's motion and the stances of A (shown first) and B, the swapped ask differing from the first by the order alone", async () => {
    const client = new ScriptedInferenceClient({ rules: [evidenceJudge, ...debaters] });
    const motions = ["Tabs are better than spaces.", "Determinism is worth a 10% slowdown."];
    // One debate at a time: each debate's two asks follow its turns.
    const arena = new Arena({ client, seed: 3, concurrency: 1 }).register(new DebateEpisode({ rounds: 2 }), ArtifactStore.of(motions.map((topic) => ({ topic }))));
    const results = await arena.generateRollouts(motions.map((topic) => ({ episodeType: "debate", artifact: { topic } })));
    const asks = client.requests.filter((request) => request.messages[0]?.content.startsWith("You judge"));
    expect(asks).toHaveLength(4);
    // Swapping the two stances turns one ask's instruction into the other's; the labels, the motion and the rest stay.
    const swapStances = (text: string) => text.replace(/\bfor\b|\bagainst\b/g, (word) => ({ for: "against", against: "for" })[word]!);
    for (const [index, result] of results.entries()) {
      const [first, swapped] = [asks[2 * index]!, asks[2 * index + 1]!];
      expect(first.messages).toEqual([
        { role: "system", content: `You judge a debate. Motion: ${motions[index]}\n"A" argues for it, "B" against it. Who argued better? Reply {"winner": "A"} or {"winner": "B"}.` },
        { role: "user", content: "A: The evidence favours it.\n\nB: It breaks in practice.\n\nA: The evidence favours it.\n\nB: It breaks in practice." },
      ]);
      expect(swapped.messages).toEqual([
        { role: "system", content: swapStances(first.messages[0]!.content) },
        { role: "user", content: "A: It breaks in practice.\n\nB: The evidence favours it.\n\nA: It breaks in practice.\n\nB: The evidence favours it." },
      ]);
      expect(swapped.messages[0]!.content).toContain(`Motion: ${motions[index]}\n"A" argues against it, "B" for it.`);
      expect(result.scoreDetails.verdicts).toEqual(["aff", "aff"]);
    }
  });

  it("with judgeLabels roles, names the sides aff and neg in the stances, the reply format and the transcript, in each ask's order", async () => {
    const client = new ScriptedInferenceClient({ rules: [evidenceJudge, ...debaters] });
    const arena = new Arena({ client, seed: 3, concurrency: 1 }).register(new DebateEpisode({ rounds: 1, judgeLabels: "roles" }));
    const [result] = await arena.generateRollouts([{ episodeType: "debate", artifact: { topic: "Tabs are better than spaces." } }]);
    const asks = client.requests.filter((request) => request.messages[0]?.content.startsWith("You judge")).map((request) => request.messages);
    expect(asks).toEqual([
      [
        { role: "system", content: 'You judge a debate. Motion: Tabs are better than spaces.\n"aff" argues for it, "neg" against it. Who argued better? Reply {"winner": "aff"} or {"winner": "neg"}.' },
        { role: "user", content: "aff: The evidence favours it.\n\nneg: It breaks in practice." },
      ],
      [
        { role: "system", content: 'You judge a debate. Motion: Tabs are better than spaces.\n"neg" argues against it, "aff" for it. Who argued better? Reply {"winner": "neg"} or {"winner": "aff"}.' },
        { role: "user", content: "neg: It breaks in practice.\n\naff: The evidence favours it." },
      ],
    ]);
    expect(result!.scoreDetails.verdicts).toEqual(["aff", "aff"]);
  });

  it("keeps every verdict of a judge that reads the content: ±1, position consistency 1", async () => {
    const { results } = await debate(new ScriptedInferenceClient({ rules: [evidenceJudge, ...debaters] }));
    for (const result of results) expect([result.rewards, result.scoreDetails.positionConsistent]).toEqual([{ aff: 1, neg: -1 }, true]);
    expect(judgingFigures(results)?.positionConsistency).toBe(1);
  });

  it("with judgeOrders one, asks once and the first side presented wins every debate, as before", async () => {
    const { results } = await debate(new ScriptedInferenceClient({ rules: [firstPresentedJudge, ...debaters] }), { judgeOrders: "one" });
    for (const result of results) expect([result.rewards, result.judgeCalls]).toEqual([{ aff: 1, neg: -1 }, 1]);
    expect(judgingFigures(results)).toBeUndefined();
  });

  it("beside a separate judge, asks the policy too (its own calls, never Steps) and reports their agreement", async () => {
    const policy = new ScriptedInferenceClient({ rules: [firstPresentedJudge, ...debaters] });
    const judge = new ScriptedInferenceClient({ rules: [evidenceJudge] });
    const { results, batch } = await debate(policy, {}, judge);
    for (const result of results) {
      expect(result.rewards).toEqual({ aff: 1, neg: -1 });
      expect(result.scoreDetails).toMatchObject({ verdict: "aff", policyVerdict: "tie", judgeAgreement: false });
      expect(result.judgeCalls).toBe(4);
      expect(result.rollout.steps.map((step) => step.roleId)).toEqual(["aff", "neg", "aff", "neg"]);
    }
    expect(judge.requests).toHaveLength(12);
    expect(policy.requests.filter((request) => request.messages[0]?.content.startsWith("You judge"))).toHaveLength(12);
    expect(judgingFigures(results)).toEqual({ positionConsistency: 1, swappedVerdicts: 6, judgeAgreement: 0, comparedVerdicts: 6 });
    expect(batch.records).toHaveLength(24);

    const quiet = new ScriptedInferenceClient({ rules: [firstPresentedJudge, ...debaters] });
    const { results: uncompared } = await debate(quiet, { policyAsJudge: false }, new ScriptedInferenceClient({ rules: [evidenceJudge] }));
    expect(uncompared.every((result) => !("judgeAgreement" in result.scoreDetails) && result.judgeCalls === 2)).toBe(true);
    expect(quiet.requests.some((request) => request.messages[0]?.content.startsWith("You judge"))).toBe(false);
  });
});
