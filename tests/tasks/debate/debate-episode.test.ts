import { describe, expect, it } from "vitest";
import { Arena } from "../../../src/arena/arena.js";
import { ArtifactStore } from "../../../src/arena/artifact-store.js";
import type { GenerationRequest } from "../../../src/core/inference-client.js";
import { judgingFigures } from "../../../src/core/verifiers/judging-figures.js";
import { formatTranscript } from "../../../src/core/verifiers/transcript.js";
import { ScriptedInferenceClient, type ScriptedRule } from "../../../src/inference/scripted-inference-client.js";
import { DebateEpisode, type DebateEpisodeOptions } from "../../../src/tasks/debate/debate-episode.js";

const transcriptOf = (request: GenerationRequest) => request.messages[1]?.content ?? "";
/** Names whichever side its transcript presents first: all position, no content. */
const firstPresentedJudge: ScriptedRule = { when: /^system: You judge/, reply: (request) => JSON.stringify({ winner: /^(\w+):/.exec(transcriptOf(request))?.[1] }) };
/** Names the side that cites evidence, wherever it is presented. */
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
    // The swapped ask names neg first and shows its turns first, round by round.
    const swapped = client.requests.filter((request) => request.messages[0]?.content.includes('"neg" argues'));
    expect(swapped).toHaveLength(6);
    expect(transcriptOf(swapped[0]!)).toBe("neg: It breaks in practice.\n\naff: The evidence favours it.\n\nneg: It breaks in practice.\n\naff: The evidence favours it.");
  });

  it("tells the judge each debate's motion and the sides' stances, the swapped ask differing from the first by the order alone", async () => {
    const client = new ScriptedInferenceClient({ rules: [evidenceJudge, ...debaters] });
    const motions = ["Tabs are better than spaces.", "Determinism is worth a 10% slowdown."];
    // One debate at a time: each debate's two asks follow its turns.
    const arena = new Arena({ client, seed: 3, concurrency: 1 }).register(new DebateEpisode({ rounds: 2 }), ArtifactStore.of(motions.map((topic) => ({ topic }))));
    const results = await arena.generateRollouts(motions.map((topic) => ({ episodeType: "debate", artifact: { topic } })));
    const asks = client.requests.filter((request) => request.messages[0]?.content.startsWith("You judge"));
    expect(asks).toHaveLength(4);
    // Swapping the two ids and the two stances turns one ask into the other; the motion and the rest stay.
    const swapSides = (text: string) => text.replace(/"aff"|"neg"|\bfor\b|\bagainst\b/g, (word) => ({ '"aff"': '"neg"', '"neg"': '"aff"', for: "against", against: "for" })[word]!);
    for (const [index, result] of results.entries()) {
      const [first, swapped] = [asks[2 * index]!, asks[2 * index + 1]!];
      expect(first.messages).toEqual([
        { role: "system", content: `You judge a debate. Motion: ${motions[index]}\n"aff" argues for it, "neg" against it. Who argued better? Reply {"winner": "aff"} or {"winner": "neg"}.` },
        { role: "user", content: formatTranscript(result.rollout, ["aff", "neg"]) },
      ]);
      expect(swapped.messages).toEqual([
        { role: "system", content: swapSides(first.messages[0]!.content) },
        { role: "user", content: formatTranscript(result.rollout, ["neg", "aff"]) },
      ]);
      expect(swapped.messages[0]!.content).toContain(`Motion: ${motions[index]}\n"neg" argues against it, "aff" for it.`);
    }
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
