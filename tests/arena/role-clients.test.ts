import { describe, expect, it } from "vitest";
import { Arena } from "../../src/arena/arena.js";
import { ArtifactStore } from "../../src/arena/artifact-store.js";
import { DebateEpisode } from "../../src/tasks/debate/debate-episode.js";
import { ScriptedInferenceClient, type ScriptedRule } from "../../src/inference/scripted-inference-client.js";

const learnerRules: ScriptedRule[] = [
  { when: /^system: You judge/, reply: (_request, random) => JSON.stringify({ winner: random.next() < 0.5 ? "A" : "B" }) },
  { when: /^system: You argue FOR/, reply: "learner for" },
];
const learner = () => new ScriptedInferenceClient({ rules: learnerRules });
// The frozen opponent knows only the negative side: a call of any other role would be an error.
const frozen = () => new ScriptedInferenceClient({ rules: [{ when: /^system: You argue AGAINST/, reply: "frozen against" }] });

describe("roles bound to a frozen policy (roleClients)", () => {
  it("sends the role's calls to its client, records its Steps, and never gives them credit or records", async () => {
    const [policy, opponent] = [learner(), frozen()];
    const arena = new Arena({ client: policy, roleClients: { neg: opponent }, seed: 7 }).register(
      new DebateEpisode({ rounds: 2 }),
      ArtifactStore.of([{ topic: "Tabs are better than spaces." }]),
    );
    const results = await arena.generateRollouts(arena.getBatch([{ episodeType: "debate", count: 2, groupSize: 4 }]));
    expect(results.every((result) => result.outcome.status === "scored")).toBe(true);
    for (const result of results) {
      expect(result.rollout.steps.map((step) => [step.roleId, step.completion[0]?.content])).toEqual([
        ["aff", "learner for"],
        ["neg", "frozen against"],
        ["aff", "learner for"],
        ["neg", "frozen against"],
      ]);
    }
    // The judge is the learner's client, never the opponent's.
    expect(opponent.requests.every((request) => request.messages[0]?.content.startsWith("You argue AGAINST"))).toBe(true);
    expect(opponent.requests).toHaveLength(16);
    const assignments = arena.assignCredit(results);
    expect(new Set(assignments.map((assignment) => assignment.roleId))).toEqual(new Set(["aff"]));
    const batch = arena.buildTrainingBatch(results, assignments, 0);
    expect(batch.records.map((record) => record.roleId)).toEqual(Array.from({ length: 16 }, () => "aff"));
    expect(batch.stats).toMatchObject({ rollouts: 8, failedRollouts: 0, skippedSteps: 16 });
    // Zero-sum verdicts in groups of 4: aff's advantages differ within a group unless it won or lost every debate.
    expect(batch.records.some((record) => record.advantage !== 0)).toBe(true);
  });

  it("is refused with a pool, whose workers would send the frozen role's calls to the learner", () => {
    expect(
      () => new Arena({ client: learner(), roleClients: { neg: frozen() }, seed: 1, pool: { workers: 1, episodes: { module: "./nowhere.js" } } }),
    ).toThrow(/pool\.workers.*0 \(in-process\) when roles are bound to frozen policies/);
  });

  it("rebinds a frozen role per rollout (roleClientsFor), the learner too, and still gives it no credit", async () => {
    const policy = new ScriptedInferenceClient({ rules: [...learnerRules, { when: /^system: You argue AGAINST/, reply: "learner against" }] });
    const snapshot = new ScriptedInferenceClient({ rules: [{ when: /^system: You argue AGAINST/, reply: "snapshot against" }] });
    const arena = new Arena({
      client: policy,
      roleClients: { neg: frozen() },
      // Even rollouts meet the snapshot, odd ones the learner itself.
      roleClientsFor: (rolloutId) => ({ neg: Number(rolloutId.slice(2)) % 2 === 0 ? snapshot : policy }),
      seed: 7,
    }).register(new DebateEpisode({ rounds: 1 }), ArtifactStore.of([{ topic: "Tabs are better than spaces." }]));
    const results = await arena.generateRollouts(arena.getBatch([{ episodeType: "debate", count: 1, groupSize: 4 }]));
    expect(results.map((result) => [result.rollout.id, result.rollout.steps.map((step) => step.completion[0]?.content)])).toEqual([
      ["ep0", ["learner for", "snapshot against"]],
      ["ep1", ["learner for", "learner against"]],
      ["ep2", ["learner for", "snapshot against"]],
      ["ep3", ["learner for", "learner against"]],
    ]);
    expect(new Set(arena.assignCredit(results).map((assignment) => assignment.roleId))).toEqual(new Set(["aff"]));
  });

  it("refuses roleClientsFor naming a role that roleClients does not bind", async () => {
    const arena = new Arena({ client: learner(), roleClients: { neg: frozen() }, roleClientsFor: () => ({ aff: frozen() }), seed: 1 }).register(
      new DebateEpisode({ rounds: 1 }),
      ArtifactStore.of([{ topic: "Tabs are better than spaces." }]),
    );
    await expect(arena.generateRollouts(arena.getBatch([{ episodeType: "debate", count: 1 }]))).rejects.toThrow(/roleClientsFor.*roles of roleClients only \(neg\)/);
  });
});
