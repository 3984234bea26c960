import { describe, expect, it } from "vitest";
import { z } from "zod";
import { Arena } from "../../src/arena/arena.js";
import { batchMetrics } from "../../src/arena/batch-metrics.js";
import type { EpisodeContext } from "../../src/core/episodes/episode-context.js";
import { Episode } from "../../src/core/episodes/episode.js";
import type { Verifier } from "../../src/core/verifiers/verifier.js";
import { RoleSchema } from "../../src/core/schemas/role.js";
import { ScriptedInferenceClient } from "../../src/inference/scripted-inference-client.js";
import { StructuredEpisode } from "../helpers/structured-episode.js";

const Verdict = z.object({ winner: z.enum(["a", "b"]) });

/** Replies from `texts` in turn, one per call, whatever the conversation. */
const inTurn = (texts: readonly string[]) => {
  let call = 0;
  return () => texts[Math.min(call++, texts.length - 1)] as string;
};

describe("schema-bound calls through the arena", () => {
  it("constrains, validates and resamples a role's output; every attempt is a flagged Step", async () => {
    const client = new ScriptedInferenceClient({ rules: [{ when: /Review/, reply: inTurn(["oops", '{"winner": "c"}', '{"winner": "b"}']) }], capabilities: { jsonSchema: true } });
    const arena = new Arena({ client, seed: 1 });
    arena.register(new StructuredEpisode({ schema: Verdict }));
    const [result] = await arena.generateRollouts([{ episodeType: "structured", artifact: { topic: "x" } }]);
    expect(result!.outcome.status).toBe("scored");
    expect(result!.rollout.artifacts.values).toEqual([{ winner: "b" }]);
    expect(result!.rollout.steps.map((step) => step.structured)).toEqual([
      { attempt: 0, valid: false },
      { attempt: 1, valid: false },
      { attempt: 2, valid: true },
    ]);
    expect(result!.rollout.steps.every((step) => step.constraint?.kind === "json-schema")).toBe(true);
    // Resamples keep the prompt and draw a new seed.
    const seeds = new Set(client.requests.map((request) => request.sampler.seed));
    expect(seeds.size).toBe(3);
    expect(new Set(client.requests.map((request) => JSON.stringify(request.messages))).size).toBe(1);
    expect(result!.structuredOutputs.role).toEqual({ calls: 1, firstTryValid: 0, resamples: 2, failures: 0 });
  });

  it("sends no constraint to a client without JSON-schema support and relies on parsing", async () => {
    const client = new ScriptedInferenceClient({ rules: [{ when: /Review/, reply: 'Sure! {"winner": "a"} is my answer.' }] });
    const arena = new Arena({ client, seed: 1 });
    arena.register(new StructuredEpisode({ schema: Verdict }));
    const [result] = await arena.generateRollouts([{ episodeType: "structured", artifact: { topic: "x" } }]);
    expect(result!.rollout.artifacts.values).toEqual([{ winner: "a" }]);
    expect(client.requests[0]!.constraint).toBeNull();
    expect(result!.structuredOutputs.role.firstTryValid).toBe(1);
  });

  it("counts a call that runs out of attempts as a failure, in the result and the batch metrics", async () => {
    const client = new ScriptedInferenceClient({ rules: [{ when: /Review/, reply: "never json" }], capabilities: { jsonSchema: true } });
    const arena = new Arena({ client, seed: 1 });
    arena.register(new StructuredEpisode({ schema: Verdict, calls: 2, maxAttempts: 2 }));
    const results = await arena.generateRollouts([{ episodeType: "structured", artifact: { topic: "x" } }]);
    expect(results[0]!.rollout.artifacts.failures).toBe(2);
    const metrics = batchMetrics(0, results, arena.buildTrainingBatch(results, arena.assignCredit(results), 0), 1);
    expect(metrics.structuredOutputs.role).toEqual({ calls: 2, firstTryValid: 0, resamples: 2, failures: 2 });
  });

  it("lets an episode ask the judge for a value during the rollout, never as a Step", async () => {
    const QuestionSchema = z.object({ question: z.string() });
    class JudgedEpisode extends Episode<z.infer<typeof QuestionSchema>, { early: string }> {
      readonly type = "judged";
      readonly roles = [RoleSchema.parse({ id: "answerer" })];
      protected readonly artifactSchema = QuestionSchema;
      readonly verifier: Verifier = {
        score: async (rollout, context) => {
          const { value } = await context.judgeObject([{ role: "user", content: "verdict?" }], Verdict, { maxAttempts: 2 });
          return { rewards: { answerer: value.winner === rollout.artifacts.early ? 1 : 0 } };
        },
      };
      async rollout(context: EpisodeContext, artifact: z.infer<typeof QuestionSchema>) {
        const early = await context.judgeObject([{ role: "user", content: "early verdict?" }], Verdict);
        await context.callModel("answerer", [{ role: "user", content: artifact.question }]);
        return { early: early.value.winner };
      }
      finalize(state: { early: string }) {
        return { early: state.early };
      }
    }
    const client = new ScriptedInferenceClient({ rules: [{ when: /question/, reply: "answer" }] });
    const judgeClient = new ScriptedInferenceClient({
      rules: [
        { when: /early verdict/, reply: '{"winner": "a"}' },
        { when: /verdict/, reply: inTurn(["maybe a?", '{"winner": "a"}']) },
      ],
      capabilities: { jsonSchema: true },
    });
    const arena = new Arena({ client, judgeClient, seed: 2 });
    arena.register(new JudgedEpisode());
    const [result] = await arena.generateRollouts([{ episodeType: "judged", artifact: { question: "question" } }]);
    expect(result!.outcome).toEqual({ status: "scored" });
    expect(result!.rewards).toEqual({ answerer: 1 });
    expect(result!.rollout.steps).toHaveLength(1);
    expect(result!.judgeCalls).toBe(3);
    expect(result!.structuredOutputs.judge).toEqual({ calls: 2, firstTryValid: 1, resamples: 1, failures: 0 });
    expect(judgeClient.requests.every((request) => request.constraint?.kind === "json-schema")).toBe(true);
  });
});
