import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Arena } from "../../src/arena/arena.js";
import { CritiqueSchema } from "../../src/dialectic/critique.js";
import { DialecticEpisode } from "../../src/dialectic/dialectic-episode.js";
import { DialecticOutcomeSchema } from "../../src/dialectic/dialectic-outcome.js";
import { StandardCritic } from "../../src/dialectic/standard-critic.js";
import { LlamaInferenceClient } from "../../src/inference/llama/llama-inference-client.js";
import { createRandomModel } from "../../src/inference/model-files/create-random-model.js";

describe("the dialectic loop on the real engine", () => {
  let client: LlamaInferenceClient;

  beforeAll(async () => {
    const folder = await mkdtemp(join(tmpdir(), "selfplay-dialectic-engine-"));
    const modelPath = (await createRandomModel({ path: join(folder, "tiny.gguf"), preset: "tiny", architecture: "llama", seed: 6 })).path;
    client = await LlamaInferenceClient.create({ modelPath, sequences: 2, contextSize: 2048 });
  });

  afterAll(async () => {
    await client.dispose();
  });

  it("runs proposer rounds and critiques constrained to the schema, to a terminal state", async () => {
    const arena = new Arena({ client, seed: 9 });
    arena.register(
      new DialecticEpisode({
        maxRounds: 3,
        proposerMaxTokens: 48,
        critics: [new StandardCritic({ sampler: { maxTokens: 400 }, logitBias: { '"': 4 } })],
      }),
    );
    const results = await arena.generateRollouts([0, 1].map((index) => ({ episodeType: "dialectic", artifact: { task: `Name a prime number (${index})` } })));
    for (const result of results) {
      expect(result.outcome).toEqual({ status: "scored" });
      const outcome = DialecticOutcomeSchema.parse(result.rollout.artifacts.outcome ?? result.rollout.artifacts);
      expect(["converged", "oscillating", "stalled", "max_rounds"]).toContain(outcome.state);
      expect(outcome.rounds.length).toBeGreaterThan(0);
      expect(outcome.rounds.length).toBeLessThanOrEqual(3);
      // One proposer Step per round, with real tokens and logprobs; the critic never appears as a Step.
      expect(result.rollout.steps.map((step) => step.roleId)).toEqual(outcome.rounds.map(() => "proposer"));
      for (const step of result.rollout.steps) {
        expect(step.completionTokenIds.length).toBeGreaterThan(0);
        expect(step.completionLogprobs.every((logprob) => logprob <= 0)).toBe(true);
      }
      // Every critique went through the constrained JSON path and validated.
      expect(result.structuredOutputs.judge.calls).toBe(outcome.rounds.length);
      expect(result.structuredOutputs.judge.failures).toBe(0);
      for (const round of outcome.rounds) {
        for (const member of round.critics) expect(CritiqueSchema.safeParse(member).success).toBe(true);
      }
      expect(Number.isFinite(result.rewards.proposer)).toBe(true);
    }
  });
});
