import { describe, expect, it } from "vitest";
import { Arena } from "../../../src/arena/arena.js";
import { LlamaInferenceClient } from "../../../src/inference/llama/llama-inference-client.js";
import { bundledArithmeticBase } from "../../../src/inference/model-files/bundled-models.js";
import { createRiddleEpisodes } from "../../../src/tasks/riddles/riddle-episodes.js";
import { RiddleEpisodeOutcomeSchema } from "../../../src/riddles/riddle-outcome.js";

describe("the riddle episode on the engine (arithmetic domain, bundled base)", () => {
  it("plays episodes end to end through the Arena and yields trainable riddler and solver records", async () => {
    const client = await LlamaInferenceClient.create({ modelPath: bundledArithmeticBase(), sequences: 4 });
    const arena = new Arena({ client, seed: 5, concurrency: 4, samplerDefaults: { temperature: 1 } });
    try {
      for (const episode of createRiddleEpisodes({ domain: "arithmetic", solvers: 6, waveSize: 3, statusEverySolvers: 3 })) arena.register(episode);
      const requests = [0, 1, 2].map((episodeIndex) => ({ episodeType: "riddle", artifact: { episodeIndex, recentRiddles: ["12+7"] } }));
      const results = await arena.generateRollouts(requests);
      const outcomes = results.map((result) => {
        expect(result.outcome).toEqual({ status: "scored" });
        return RiddleEpisodeOutcomeSchema.parse(result.rollout.artifacts);
      });
      const batch = arena.buildTrainingBatch(results, arena.assignCredit(results), 0);
      const byRole = (roleId: string) => batch.records.filter((record) => record.roleId === roleId).length;
      // The grammar keeps every draft a±b; the critic (code) accepts those within bounds.
      for (const result of results) {
        const riddlerSteps = result.rollout.steps.filter((step) => step.roleId.startsWith("riddler"));
        for (const step of riddlerSteps) expect(step.constrained).toBe(true);
      }
      for (const outcome of outcomes) {
        expect(outcome.solverRuns.length + outcome.solverCallsSaved).toBe(outcome.riddle ? 6 : 0);
        expect(outcome.statusSummaries).toHaveLength(Math.floor(outcome.solverRuns.length / 3));
      }
      expect(batch.records.length).toBeGreaterThan(0);
      expect(byRole("solver")).toBeGreaterThan(0);
      expect(byRole("riddler")).toBe(outcomes.filter((outcome) => outcome.riddle !== null).length);
      for (const record of batch.records) expect(record.promptTokenIds.length + record.completionTokenIds.length).toBeLessThan(256);
    } finally {
      await arena.close();
      await client.dispose();
    }
  }, 60_000);
});
