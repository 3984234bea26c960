import { describe, expect, it } from "vitest";
import { Arena } from "../../src/arena/arena.js";
import { DialecticEpisode } from "../../src/dialectic/dialectic-episode.js";
import { proposalHash } from "../../src/dialectic/proposal-hash.js";
import { scriptedDialecticRules } from "../../src/dialectic/scripted-dialectic.js";
import { ScriptedInferenceClient } from "../../src/inference/scripted-inference-client.js";
import { critiqueJson, distinctProposals, playDialectic } from "./dialectic-script.js";

const [P1, P2, P3, P4, P5] = distinctProposals(5) as [string, string, string, string, string];

describe("DialecticEpisode terminal states", () => {
  it("converges when a critique approves with a score at the threshold, returning that proposal", async () => {
    const { outcome } = await playDialectic({ proposals: [P1, P2], critiques: [{ score: 0.6 }, { approved: true, score: 0.85 }] });
    expect(outcome()).toMatchObject({ state: "converged", pattern: null, finalOutput: P2, finalScore: 0.85, finalRound: 2 });
    expect(outcome().rounds).toHaveLength(2);
  });

  it("does not converge on an approval below the threshold, nor on a high score without approval", async () => {
    const { outcome } = await playDialectic(
      { proposals: [P1, P2], critiques: [{ approved: true, score: 0.84 }, { approved: false, score: 0.95 }] },
      { maxRounds: 2 },
    );
    expect(outcome().state).toBe("max_rounds");
  });

  it("stalls when no score rises by the improvement threshold across the window", async () => {
    const script = { proposals: [P1, P2, P3, P4], critiques: [{ score: 0.6 }, { score: 0.58 }, { score: 0.57 }, { score: 0.9 }] };
    const adaptive = (await playDialectic(script)).outcome();
    expect(adaptive).toMatchObject({ state: "stalled", pattern: null });
    expect(adaptive.rounds).toHaveLength(3);
    // The adaptive engine gives back the best proposal so far; the basic one the latest.
    expect(adaptive).toMatchObject({ finalOutput: P1, finalScore: 0.6, finalRound: 1 });
    const basic = (await playDialectic(script, { adaptive: false })).outcome();
    expect(basic).toMatchObject({ state: "stalled", finalOutput: P3, finalScore: 0.57, finalRound: 3 });
  });

  it("keeps going while scores rise by at least the threshold", async () => {
    const { outcome } = await playDialectic(
      { proposals: [P1, P2, P3, P4], critiques: [{ score: 0.5 }, { score: 0.55 }, { score: 0.6 }, { score: 0.65 }] },
      { maxRounds: 4 },
    );
    expect(outcome().state).toBe("max_rounds");
  });

  it("stops at max_rounds: the adaptive engine returns the best proposal, the basic one the latest", async () => {
    const script = { proposals: [P1, P2, P3, P4], critiques: [{ score: 0.3 }, { score: 0.45 }, { score: 0.6 }, { score: 0.5 }] };
    const adaptive = (await playDialectic(script, { maxRounds: 4 })).outcome();
    expect(adaptive).toMatchObject({ state: "max_rounds", finalOutput: P3, finalScore: 0.6, finalRound: 3 });
    const basic = (await playDialectic(script, { maxRounds: 4, adaptive: false })).outcome();
    expect(basic).toMatchObject({ state: "max_rounds", finalOutput: P4, finalScore: 0.5, finalRound: 4 });
  });

  it("the basic engine stops oscillating at the first oscillation and returns the latest proposal", async () => {
    const { outcome } = await playDialectic(
      { proposals: [P1, P2, P1], critiques: [{ score: 0.5 }, { score: 0.6 }, { score: 0.5 }] },
      { adaptive: false },
    );
    expect(outcome()).toMatchObject({ state: "oscillating", pattern: "flip-flop", finalOutput: P1, finalRound: 3 });
    expect(outcome().rounds.map((round) => round.strategy)).toEqual([null, null, null]);
  });
});

describe("DialecticEpisode oscillation patterns", () => {
  it("flip-flop: a reworded return to an earlier proposal, whose hash differs", async () => {
    const reworded = `  ${P1.toUpperCase().replace(/\.$/, "")} !`;
    const { outcome } = await playDialectic(
      { proposals: [P1, P2, reworded], critiques: [{ score: 0.5 }, { score: 0.6 }, { score: 0.7 }] },
      { adaptive: false },
    );
    expect(outcome()).toMatchObject({ state: "oscillating", pattern: "flip-flop" });
    const [first, , third] = outcome().rounds;
    expect(third?.proposalHash).toBe(first?.proposalHash);
    const nearCopy = `${P1} It also trims spaces.`;
    const near = await playDialectic(
      { proposals: [P1, P2, nearCopy], critiques: [{ score: 0.5 }, { score: 0.6 }, { score: 0.7 }] },
      { adaptive: false, similarityThreshold: 0.8 },
    );
    expect(proposalHash(nearCopy)).not.toBe(proposalHash(P1));
    expect(near.outcome()).toMatchObject({ state: "oscillating", pattern: "flip-flop" });
  });

  it("incremental reversal: an issue fixed in one round comes back in the next", async () => {
    const { outcome } = await playDialectic(
      {
        proposals: [P1, P2, P3],
        critiques: [
          { score: 0.5, issues: ["X is broken"] },
          { score: 0.6, issues: ["Y is missing"] },
          { score: 0.7, issues: ["X is now broken"] },
        ],
      },
      { adaptive: false, issueSimilarityThreshold: 0.75 },
    );
    expect(outcome()).toMatchObject({ state: "oscillating", pattern: "incremental-reversal" });
  });

  it("perfection loop: scores circling within a small band", async () => {
    const { outcome } = await playDialectic(
      {
        proposals: [P1, P2, P3],
        critiques: [
          { score: 0.82, issues: ["Improve error handling"] },
          { score: 0.84, issues: ["Simplify error handling"] },
          { score: 0.83, issues: ["Improve error handling"] },
        ],
      },
      { adaptive: false },
    );
    expect(outcome()).toMatchObject({ state: "oscillating", pattern: "perfection-loop" });
  });
});

describe("DialecticEpisode escape strategies (adaptive engine)", () => {
  const perfectionLoop = {
    proposals: [P1, P2, P3, P4, P5],
    critiques: [
      { score: 0.82, issues: ["Improve error handling", "Add examples"] },
      { score: 0.84, issues: ["Simplify error handling"] },
      { score: 0.83, issues: ["Improve error handling"] },
      { score: 0.84, issues: ["Simplify error handling", "Name the edge cases"] },
      { score: 0.83, issues: ["Improve error handling"] },
    ],
  };

  it("raises the temperature, then injects the recurring issues, then returns the best proposal", async () => {
    const { outcome, policyRequests } = await playDialectic(perfectionLoop);
    const rounds = outcome().rounds;
    expect(rounds.map((round) => [round.pattern, round.strategy])).toEqual([
      [null, null],
      [null, null],
      ["perfection-loop", "raise-temperature"],
      ["perfection-loop", "inject-constraints"],
      ["perfection-loop", "return-best"],
    ]);
    expect(outcome()).toMatchObject({ state: "oscillating", pattern: "perfection-loop", finalOutput: P2, finalScore: 0.84, finalRound: 2 });

    // Raise temperature: a per-call sampler override of the proposer from round 4 on.
    expect(rounds.map((round) => round.temperature)).toEqual([0.7, 0.7, 0.7, 0.8, 0.8]);
    expect(policyRequests.map((request) => request.sampler.temperature)).toEqual([0.7, 0.7, 0.7, 0.8, 0.8]);

    // Inject constraints: the issues raised in more than one round of the window (rounds 2–4).
    expect(rounds.map((round) => round.constraints)).toEqual([[], [], [], [], ["Simplify error handling"]]);
    const fifthPrompt = policyRequests[4]?.messages.at(-1)?.content ?? "";
    expect(fifthPrompt).toContain(
      "CONSTRAINTS: You MUST address these specific issues:\n1. Simplify error handling\n\nDo NOT repeat previous approaches that had these issues.",
    );
    expect(policyRequests[3]?.messages.at(-1)?.content).not.toContain("CONSTRAINTS");
  });

  it("an escape that works ends in convergence, with the pattern that fired on record", async () => {
    const { outcome } = await playDialectic({
      proposals: [P1, P2, P1, P4],
      critiques: [{ score: 0.5 }, { score: 0.6 }, { score: 0.5 }, { approved: true, score: 0.9 }],
    });
    expect(outcome()).toMatchObject({ state: "converged", pattern: "flip-flop", finalOutput: P4 });
    expect(outcome().rounds.map((round) => round.strategy)).toEqual([null, null, "raise-temperature", null]);
  });

  it("caps the temperature at maxTemperature", async () => {
    const { policyRequests } = await playDialectic(
      { proposals: [P1, P2, P1, P2], critiques: [{ score: 0.5 }, { score: 0.6 }, { score: 0.5 }, { score: 0.6 }] },
      { maxRounds: 4, baseTemperature: 0.95 },
    );
    expect(policyRequests.map((request) => request.sampler.temperature)).toEqual([0.95, 0.95, 0.95, 1]);
  });
});

describe("DialecticEpisode critics are judges on the strict JSON path", () => {
  it("constrains the critic to the critique schema, validates it and counts it as judge output, never as Steps", async () => {
    const { result, judgeRequests } = await playDialectic({
      proposals: [P1, P2],
      critiques: [{ score: 0.6, issues: ["too long"] }, { approved: true, score: 0.9 }],
      judgeJsonSchema: true,
    });
    expect(result.outcome).toEqual({ status: "scored" });
    expect(judgeRequests).toHaveLength(2);
    for (const request of judgeRequests) {
      expect(request.constraint?.kind).toBe("json-schema");
      const schema = request.constraint?.kind === "json-schema" ? request.constraint.schema : {};
      expect(schema).toMatchObject({
        required: ["approved", "score", "feedback", "issues", "suggestions"],
        properties: { score: { minimum: 0, maximum: 1 }, issues: { maxItems: 4, items: { maxLength: 80 } } },
      });
    }
    expect(result.judgeCalls).toBe(2);
    expect(result.structuredOutputs.judge).toEqual({ calls: 2, firstTryValid: 2, resamples: 0, failures: 0 });
    expect(result.structuredOutputs.role.calls).toBe(0);
    expect(result.rollout.steps.map((step) => step.roleId)).toEqual(["proposer", "proposer"]);
  });

  it("resamples an invalid critique within the budget", async () => {
    const { result, outcome } = await playDialectic({
      proposals: [P1],
      critiques: [critiqueJson({ approved: true, score: 1.5 }), { approved: true, score: 0.9 }],
      judgeJsonSchema: true,
    });
    expect(outcome().state).toBe("converged");
    expect(result.structuredOutputs.judge).toEqual({ calls: 1, firstTryValid: 0, resamples: 1, failures: 0 });
  });

  it("fails the rollout with StructuredOutputError when no critique validates, instead of scoring it", async () => {
    const { result } = await playDialectic({ proposals: [P1], critiques: ["{}", "{}", "{}", "{}"], judgeJsonSchema: true });
    expect(result.outcome).toMatchObject({ status: "failed", stage: "rollout", error: { name: "StructuredOutputError" } });
    expect(result.rewards).toEqual({});
    expect(result.structuredOutputs.judge).toEqual({ calls: 1, firstTryValid: 0, resamples: 3, failures: 1 });
  });

  it("reads a plain-text critic tolerantly when the judge cannot constrain", async () => {
    const { outcome, judgeRequests } = await playDialectic({
      proposals: [P1, P2],
      critiques: [
        "Decent start.\nSCORE: 6/10\nISSUES:\n- no tests\n- unclear names",
        "Looks great now: {\"approved\": true, \"score\": \"90%\", \"feedback\": \"good\"}",
      ],
    });
    expect(judgeRequests.every((request) => request.constraint === null)).toBe(true);
    expect(outcome().rounds.map((round) => round.critique)).toEqual([
      { approved: false, score: 0.6, feedback: "Decent start.", issues: ["no tests", "unclear names"], suggestions: [] },
      { approved: true, score: 0.9, feedback: "good", issues: [], suggestions: [] },
    ]);
    expect(outcome().state).toBe("converged");
  });

  it("records every critic of an ensemble, their mean score, the union of their issues and their disagreement", async () => {
    const { StandardCritic } = await import("../../src/dialectic/standard-critic.js");
    const { outcome } = await playDialectic(
      {
        proposals: [P1],
        critiques: [
          { approved: true, score: 0.9, issues: ["a"] },
          { approved: true, score: 0.8, issues: ["b", "a"] },
        ],
      },
      { critics: [new StandardCritic({ focus: "correctness" }), new StandardCritic({ focus: "style" })] },
    );
    const [round] = outcome().rounds;
    expect(round?.critics.map((member) => [member.critic, member.score])).toEqual([
      ["correctness", 0.9],
      ["style", 0.8],
    ]);
    expect(round?.critique.score).toBeCloseTo(0.85, 12);
    expect(round?.critique.issues).toEqual(["a", "b"]);
    expect(round?.disagreement).toBeCloseTo(0.1, 12);
    expect(outcome().state).toBe("converged");
  });
});

describe("DialecticEpisode rewards", () => {
  it("rewards the proposer from the final score and its improvement over the first round", async () => {
    const script = { proposals: [P1, P2], critiques: [{ score: 0.6 }, { approved: true, score: 0.9 }] };
    expect((await playDialectic(script)).result.rewards).toEqual({ proposer: 0.9 + 0.5 * (0.9 - 0.6) });
    const weighted = await playDialectic(script, { improvementWeight: 1 });
    expect(weighted.result.rewards["proposer"]).toBeCloseTo(1.2, 12);
    expect(weighted.result.scoreDetails).toMatchObject({ state: "converged", rounds: 2, firstScore: 0.6, finalScore: 0.9 });
  });

  it("trains only the proposer by default: the training batch holds one record per proposal", async () => {
    const client = new ScriptedInferenceClient({ rules: scriptedDialecticRules });
    const arena = new Arena({ client, seed: 3 }).register(new DialecticEpisode());
    const results = await arena.generateRollouts([{ episodeType: "dialectic", artifact: { task: "Sort a list" } }]);
    const batch = arena.buildTrainingBatch(results, arena.assignCredit(results), 0);
    expect(batch.records.map((record) => record.roleId)).toEqual(["proposer", "proposer", "proposer", "proposer", "proposer"]);
  });

  it("a trainable critic is a Role rewarded for agreeing with the independent check", async () => {
    const { result, judgeRequests } = await playDialectic(
      { proposals: ["draft without tests", "draft with tests"], critiques: [{ score: 0.6 }, { approved: true, score: 0.9 }] },
      { trainableCritic: { check: (proposal) => proposal.includes("with tests") } },
    );
    expect(judgeRequests).toHaveLength(0);
    expect(result.rollout.steps.map((step) => [step.roleId, step.structured?.valid ?? null])).toEqual([
      ["proposer", null],
      ["critic", true],
      ["proposer", null],
      ["critic", true],
    ]);
    expect(result.structuredOutputs.role).toEqual({ calls: 2, firstTryValid: 2, resamples: 0, failures: 0 });
    const rounds = (result.rollout.artifacts["rounds"] as Array<{ check: number }>).map((round) => round.check);
    expect(rounds).toEqual([0, 1]);
    expect(result.rewards["critic"]).toBeCloseTo((1 - 0.6 ** 2 + (1 - 0.1 ** 2)) / 2, 12);
    expect(result.rewards["proposer"]).toBeCloseTo(1.05, 12);
  });

  it("pays a critic that never approves nothing for it: its reward depends on the check alone", async () => {
    const check = { check: () => 1 };
    const harsh = await playDialectic(
      { proposals: [P1, P2, P3], critiques: [{ score: 0 }, { score: 0 }, { score: 0 }] },
      { trainableCritic: check },
    );
    const fair = await playDialectic(
      { proposals: [P1, P2, P3], critiques: [{ score: 0.8 }, { score: 0.8 }, { score: 0.8 }] },
      { trainableCritic: check },
    );
    expect(harsh.result.rewards["critic"]).toBe(0);
    expect(fair.result.rewards["critic"]).toBeCloseTo(1 - 0.2 ** 2, 12);
  });

  it("rejects a check outside 0–1 by failing the rollout", async () => {
    const { result } = await playDialectic({ proposals: [P1], critiques: [{ score: 0.5 }] }, { trainableCritic: { check: () => 3 } });
    expect(result.outcome).toMatchObject({ status: "failed", error: { name: "InvalidInputError" } });
  });
});

describe("DialecticEpisode determinism", () => {
  const play = async (seed: number) => {
    const arena = new Arena({ client: new ScriptedInferenceClient({ rules: scriptedDialecticRules }), seed }).register(new DialecticEpisode());
    return arena.generateRollouts([{ episodeType: "dialectic", artifact: { task: "Sort a list" } }]);
  };

  it("replays identically from the same seed; sampler seeds follow the run seed", async () => {
    const [first] = await play(5);
    const [again] = await play(5);
    const [other] = await play(6);
    expect(JSON.stringify(again)).toBe(JSON.stringify(first));
    const seeds = (result: typeof first) => result?.rollout.steps.map((step) => step.sampler.seed);
    expect(seeds(other)).not.toEqual(seeds(first));
  });

  it("rejects settings out of range with the field named", () => {
    expect(() => new DialecticEpisode({ maxRounds: 0 })).toThrow(/maxRounds/);
    expect(() => new DialecticEpisode({ approvalThreshold: 1.5 })).toThrow(/approvalThreshold/);
    expect(() => new DialecticEpisode({ baseTemperature: 1.2 })).toThrow(/maxTemperature/);
    expect(() => new DialecticEpisode({ improvementWeight: -1 })).toThrow(/improvementWeight/);
  });
});
