import { describe, expect, it } from "vitest";
import { Arena } from "../../src/arena/arena.js";
import { ArtifactStore } from "../../src/arena/artifact-store.js";
import { RewardBroadcast } from "../../src/core/credit/reward-broadcast.js";
import { Episode } from "../../src/core/episodes/episode.js";
import type { EpisodeContext } from "../../src/core/episodes/episode-context.js";
import type { JsonObject } from "../../src/core/json.js";
import { RoleSchema } from "../../src/core/schemas/role.js";
import type { Verifier } from "../../src/core/verifiers/verifier.js";
import { z } from "zod";
import { DebateEpisode } from "../../src/tasks/debate/debate-episode.js";
import { scriptedDebateRules } from "../../src/tasks/debate/scripted-debate.js";
import { ScriptedInferenceClient } from "../../src/inference/scripted-inference-client.js";
import { ask, QuestionEpisode } from "../helpers/echo-episode.js";
import { RecordingClient, until } from "../helpers/recording-client.js";

const echoClient = () => new ScriptedInferenceClient({ rules: [{ when: /.*/s, reply: (request) => request.messages.at(-1)?.content ?? "" }] });

/** An episode whose rollout throws: the arena must contain it. */
class ExplodingEpisode extends Episode<JsonObject, void> {
  readonly type = "explode";
  readonly roles = [RoleSchema.parse({ id: "answerer" })];
  readonly verifier: Verifier = { score: async () => ({ rewards: {} }) };
  protected readonly artifactSchema = z.record(z.string(), z.any());
  async rollout(context: EpisodeContext): Promise<void> {
    await context.callModel("answerer", [{ role: "user", content: "first" }]);
    throw new Error("environment crashed");
  }
  finalize(): JsonObject {
    return {};
  }
}

describe("Arena.generateRollouts", () => {
  it("scores each rollout and keeps request order", async () => {
    const arena = new Arena({ client: echoClient(), seed: 1 }).register(new QuestionEpisode());
    const results = await arena.generateRollouts([ask("4", "4"), ask("5", "6")]);
    expect(results.map((result) => result.rollout.id)).toEqual(["ep0", "ep1"]);
    expect(results.map((result) => result.rewards)).toEqual([{ answerer: 1 }, { answerer: 0 }]);
    expect(results[0]?.rollout.steps[0]?.completionTokenIds).toEqual([...Buffer.from("4")].map((byte) => byte + 3));
  });

  it("records an episode that throws as failed, with its error and stage, and the rest of the batch still scores", async () => {
    const arena = new Arena({ client: echoClient(), seed: 1 }).register(new QuestionEpisode()).register(new ExplodingEpisode());
    const results = await arena.generateRollouts([ask("1", "1"), { episodeType: "explode", artifact: {} }, ask("2", "2")]);
    expect(results.map((result) => result.outcome.status)).toEqual(["scored", "failed", "scored"]);
    expect(results[1]?.outcome).toEqual({
      status: "failed",
      stage: "rollout",
      error: { name: "Error", message: "environment crashed" },
    });
    expect(results[1]?.rollout.steps).toHaveLength(1);
    const batch = arena.buildTrainingBatch(results, arena.assignCredit(results), 0);
    expect(batch.records.map((record) => record.rolloutId)).toEqual(["ep0", "ep2"]);
    expect(batch.stats).toMatchObject({ rollouts: 3, failedRollouts: 1 });
  });

  it("fails a rollout whose verifier gives a non-finite reward, or none to a role that acted", async () => {
    const nan: Verifier = { score: async () => ({ rewards: { answerer: Number.NaN } }) };
    const none: Verifier = { score: async () => ({ rewards: {} }) };
    const arena = new Arena({ client: echoClient(), seed: 1 })
      .register(new QuestionEpisode("nan", {}, nan))
      .register(new QuestionEpisode("none", {}, none));
    const results = await arena.generateRollouts([
      { ...ask("1", "1"), episodeType: "nan" },
      { ...ask("1", "1"), episodeType: "none" },
    ]);
    for (const result of results) {
      expect(result.outcome).toMatchObject({ status: "failed", stage: "score", error: { name: "InvalidRewardError" } });
    }
  });

  it("rejects an unknown episode type before running anything", async () => {
    const arena = new Arena({ client: echoClient(), seed: 1 }).register(new QuestionEpisode());
    await expect(arena.generateRollouts([{ episodeType: "riddle" }])).rejects.toThrow(/unknown episode type "riddle".*question/);
  });

  it("batches concurrent model calls into one generate call of up to parallelSequences", async () => {
    const client = new RecordingClient(3);
    const arena = new Arena({ client, seed: 1 }).register(new QuestionEpisode());
    const running = arena.generateRollouts(Array.from({ length: 8 }, (_, index) => ask(`q${index}`, "ok")));
    await until(() => client.pending === 3);
    expect(client.batches.map((batch) => batch.length)).toEqual([3, 3, 2]);
    client.releaseAll();
    const results = await running;
    expect(results.every((result) => result.rewards["answerer"] === 1)).toBe(true);
  });

  it("keeps at most `concurrency` top-level episodes in flight", async () => {
    const client = new RecordingClient(16);
    const arena = new Arena({ client, seed: 1, concurrency: 2 }).register(new QuestionEpisode());
    const running = arena.generateRollouts(Array.from({ length: 5 }, (_, index) => ask(`q${index}`, "ok")));
    const inFlight: number[] = [];
    while (inFlight.reduce((a, b) => a + b, 0) < 5) {
      await until(() => client.pending > 0);
      inFlight.push(client.batches.at(-1)?.length ?? 0);
      client.releaseAll();
    }
    await running;
    expect(Math.max(...inFlight)).toBe(2);
    expect(client.batches.flat()).toHaveLength(5);
  });

  it("derives sampler seeds from (run seed, rollout, role): same seed ⇒ same requests, other seed ⇒ others", async () => {
    const seedsOf = async (seed: number) => {
      const client = echoClient();
      const arena = new Arena({ client, seed }).register(new QuestionEpisode());
      await arena.generateRollouts([ask("a", "a"), ask("b", "b")]);
      return client.requests.map((request) => request.sampler.seed);
    };
    expect(await seedsOf(7)).toEqual(await seedsOf(7));
    expect(await seedsOf(7)).not.toEqual(await seedsOf(8));
  });

  it("merges sampler settings: arena defaults < role < call", async () => {
    const client = echoClient();
    const arena = new Arena({ client, seed: 1, samplerDefaults: { maxTokens: 50, temperature: 0.9 } }).register(
      new QuestionEpisode("question", { systemPrompt: "Be terse.", sampler: { temperature: 0.3 } }),
    );
    const [result] = await arena.generateRollouts([ask("hi", "hi")]);
    expect(result?.rollout.steps[0]?.sampler).toMatchObject({ temperature: 0.3, maxTokens: 50, topK: 0, topP: 1 });
    expect(result?.rollout.steps[0]?.prompt[0]).toEqual({ role: "system", content: "Be terse." });
  });

  it("records every rollout as failed when the run was aborted before it started", async () => {
    const controller = new AbortController();
    controller.abort();
    const arena = new Arena({ client: echoClient(), seed: 1, signal: controller.signal }).register(new QuestionEpisode());
    const [result] = await arena.generateRollouts([ask("a", "a")]);
    expect(result?.outcome).toMatchObject({ status: "failed", error: { name: "RolloutAbortedError" } });
  });
});

describe("judges are never Roles", () => {
  it("keeps judge calls out of Steps and out of the TrainingBatch, and counts them", async () => {
    const client = new ScriptedInferenceClient({
      // Names the label of the side that opposes the motion, wherever it is shown.
      rules: [{ when: /^system: You judge/, reply: (request) => JSON.stringify({ winner: /(\w+): I oppose/.exec(request.messages[1]?.content ?? "")?.[1] }) }, ...scriptedDebateRules],
    });
    const arena = new Arena({ client, seed: 3 }).register(
      new DebateEpisode({ rounds: 2 }),
      ArtifactStore.of([{ topic: "Tabs are better than spaces." }]),
    );
    const results = await arena.generateRollouts(arena.getBatch([{ episodeType: "debate", count: 2 }]));
    const batch = arena.buildTrainingBatch(results, arena.assignCredit(results), 0);
    const judgePrompts = client.requests.filter((request) => request.messages[0]?.content.startsWith("You judge"));
    // Two asks per debate, the sides in both orders; a judge that names neg's argument wherever it is shown survives the swap.
    expect(judgePrompts).toHaveLength(4);
    for (const result of results) {
      expect(result.rewards).toEqual({ aff: -1, neg: 1 });
      expect(result.judgeCalls).toBe(2);
      expect(result.rollout.steps.map((step) => step.roleId)).toEqual(["aff", "neg", "aff", "neg"]);
    }
    expect(new Set(batch.records.map((record) => record.roleId))).toEqual(new Set(["aff", "neg"]));
    expect(batch.records).toHaveLength(8);
    const judgeTokens = JSON.stringify([...Buffer.from("You judge")].map((byte) => byte + 3)).slice(1, -1);
    for (const record of batch.records) expect(JSON.stringify(record.promptTokenIds)).not.toContain(judgeTokens);
  });

  it("an episode cannot call an undeclared role such as a judge", async () => {
    class SneakyEpisode extends QuestionEpisode {
      override async rollout(context: EpisodeContext) {
        return { response: await context.callModel("judge", [{ role: "user", content: "x" }]) };
      }
    }
    const arena = new Arena({ client: echoClient(), seed: 1 }).register(new SneakyEpisode());
    const [result] = await arena.generateRollouts([ask("a", "a")]);
    expect(result?.outcome).toMatchObject({ status: "failed", error: { name: "UnknownRoleError" } });
  });

  it("resamples an invalid verdict within its budget, then fails the rollout and says why", async () => {
    const client = new ScriptedInferenceClient({
      rules: [{ when: /^system: You judge/, reply: "Both were great." }, ...scriptedDebateRules],
    });
    const arena = new Arena({ client, seed: 3 }).register(new DebateEpisode({ rounds: 1, judgeAttempts: 3 }));
    const [result] = await arena.generateRollouts([{ episodeType: "debate", artifact: { topic: "x" } }]);
    expect(result?.judgeCalls).toBe(3);
    expect(result?.rewards).toEqual({});
    expect(result?.outcome).toMatchObject({ status: "failed", stage: "score", error: { name: "StructuredOutputError" } });
    expect(result?.outcome.status === "failed" && result.outcome.error.message).toMatch(/in 3 attempt.*Both were great/);
  });
});

describe("Arena.getBatch", () => {
  it("draws artifacts from the store reproducibly and gives group members one groupId", () => {
    const makeArena = () =>
      new Arena({ client: echoClient(), seed: 5 }).register(
        new QuestionEpisode(),
        ArtifactStore.of(Array.from({ length: 20 }, (_, index) => ({ question: `q${index}`, expected: `${index}` }))),
      );
    const first = makeArena().getBatch([{ episodeType: "question", count: 3, groupSize: 2 }]);
    expect(first).toEqual(makeArena().getBatch([{ episodeType: "question", count: 3, groupSize: 2 }]));
    expect(first.map((request) => request.groupId)).toEqual(["b0.0.0", "b0.0.0", "b0.0.1", "b0.0.1", "b0.0.2", "b0.0.2"]);
    expect(first[0]?.artifact).toEqual(first[1]?.artifact);
    const arena = makeArena();
    arena.getBatch([{ episodeType: "question", count: 3 }]);
    expect(arena.getBatch([{ episodeType: "question", count: 3 }])).not.toEqual(
      makeArena().getBatch([{ episodeType: "question", count: 3 }]),
    );
  });

  it("rejects a plan whose count is not a positive integer, naming the field", () => {
    const arena = new Arena({ client: echoClient(), seed: 5 }).register(new QuestionEpisode());
    expect(() => arena.getBatch([{ episodeType: "question", count: 0 }])).toThrow(/plan\[0\]\.count/);
  });
});

describe("Arena credit and TrainingBatch", () => {
  it("normalises within groups and leaves out Steps of frozen roles", async () => {
    const client = new ScriptedInferenceClient({ rules: [{ when: /q1/, reply: "1" }, { when: /.*/s, reply: "wrong" }] });
    const arena = new Arena({ client, seed: 1 })
      .register(new QuestionEpisode())
      .register(new QuestionEpisode("frozen", { trainable: false }));
    const results = await arena.generateRollouts([
      ask("q1", "1", "g"),
      ask("q2", "1", "g"),
      { ...ask("q1", "1"), episodeType: "frozen" },
    ]);
    const assignments = arena.assignCredit(results);
    const half = 0.5 / (Math.sqrt(0.5) + 1e-4);
    expect(assignments.map((assignment) => assignment.advantage)).toEqual([half, -half, 0]);
    const batch = arena.buildTrainingBatch(results, assignments, 4);
    expect(batch.batchIndex).toBe(4);
    expect(batch.records.map((record) => [record.rolloutId, record.reward, record.advantage])).toEqual([
      ["ep0", 1, half],
      ["ep1", 0, -half],
    ]);
    expect(batch.stats.skippedSteps).toBe(1);
    expect(batch.creditAssigner).toBe("role-aware(grpo|role-baseline)");
  });

  it("uses the credit assigner it is given", async () => {
    const arena = new Arena({ client: echoClient(), seed: 1, creditAssigner: new RewardBroadcast() }).register(new QuestionEpisode());
    const results = await arena.generateRollouts([ask("a", "a"), ask("b", "c")]);
    expect(arena.assignCredit(results).map((assignment) => assignment.advantage)).toEqual([1, 0]);
  });
});

describe("Arena.snapshot", () => {
  it("restores counters, baselines and stores so a resumed run continues identically", async () => {
    const makeArena = () =>
      new Arena({ client: echoClient(), seed: 9 }).register(
        new QuestionEpisode(),
        ArtifactStore.of([{ question: "a", expected: "a" }, { question: "b", expected: "x" }]),
      );
    const step = async (arena: Arena) => {
      const results = await arena.generateRollouts(arena.getBatch([{ episodeType: "question", count: 3 }]));
      return { results, credit: arena.assignCredit(results) };
    };
    const uninterrupted = makeArena();
    await step(uninterrupted);
    const snapshot = JSON.parse(JSON.stringify(uninterrupted.snapshot()));
    const expected = await step(uninterrupted);
    const resumed = makeArena();
    resumed.restore(snapshot);
    expect(await step(resumed)).toEqual(expected);
  });
});

describe("model-call batching and failures", () => {
  it("fails only the request the client rejects, not its batch-mates", async () => {
    const client = new ScriptedInferenceClient({
      rules: [
        {
          when: /poison/,
          reply: () => {
            throw new Error("prompt too long");
          },
        },
        { when: /.*/s, reply: (request) => request.messages.at(-1)?.content ?? "" },
      ],
    });
    const arena = new Arena({ client, seed: 1 }).register(new QuestionEpisode());
    const results = await arena.generateRollouts([ask("a", "a"), ask("poison", "x"), ask("b", "b")]);
    expect(results.map((result) => result.outcome.status)).toEqual(["scored", "failed", "scored"]);
    expect(results[1]?.outcome).toMatchObject({ stage: "rollout", error: { message: "prompt too long" } });
  });
});
