import { describe, expect, it } from "vitest";
import { Arena } from "../../../src/arena/arena.js";
import { ArtifactStore } from "../../../src/arena/artifact-store.js";
import { judgingFigures } from "../../../src/core/verifiers/judging-figures.js";
import { LlamaInferenceClient } from "../../../src/inference/llama/llama-inference-client.js";
import { bundledArithmeticBase } from "../../../src/inference/model-files/bundled-models.js";
import { DebateEpisode } from "../../../src/tasks/debate/debate-episode.js";

describe("the debate's swapped verdicts on the engine (project-made base)", () => {
  it("asks the greedy judge in both orders, ties the flips at 0, and a judge with the policy's own weights agrees with the policy every time", async () => {
    const client = await LlamaInferenceClient.create({ modelPath: bundledArithmeticBase(), sequences: 4 });
    // The same weights in a second client: a separate judge, so the policy is asked too.
    const judgeClient = await LlamaInferenceClient.create({ modelPath: bundledArithmeticBase(), sequences: 4 });
    const arena = new Arena({ client, judgeClient, seed: 9, concurrency: 4 }).register(
      new DebateEpisode({ rounds: 1, maxTokens: 8 }),
      ArtifactStore.of([{ topic: "Tabs are better than spaces." }, { topic: "Determinism is worth a 10% slowdown." }]),
    );
    try {
      const results = await arena.generateRollouts(arena.getBatch([{ episodeType: "debate", count: 2, groupSize: 2 }]));
      for (const result of results) {
        expect(result.outcome).toEqual({ status: "scored" });
        const { verdict, verdicts, positionConsistent, policyVerdict, judgeAgreement } = result.scoreDetails;
        expect(verdicts).toHaveLength(2);
        for (const named of verdicts as string[]) expect(["aff", "neg"]).toContain(named);
        const [first, swapped] = verdicts as [string, string];
        expect(positionConsistent).toBe(first === swapped);
        expect(verdict).toBe(first === swapped ? first : "tie");
        expect(result.rewards).toEqual(verdict === "tie" ? { aff: 0, neg: 0 } : { aff: verdict === "aff" ? 1 : -1, neg: verdict === "neg" ? 1 : -1 });
        // Greedy asks of the same weights: the policy's verdict is the judge's.
        expect([policyVerdict, judgeAgreement]).toEqual([verdict, true]);
        // Two judge asks and two policy asks, constrained to the labels A and B: valid at the first try.
        expect(result.judgeCalls).toBe(4);
        expect(result.structuredOutputs.judge).toMatchObject({ calls: 4, firstTryValid: 4, failures: 0 });
      }
      const figures = judgingFigures(results);
      const held = results.filter((result) => result.scoreDetails.positionConsistent === true).length;
      expect(figures).toEqual({ positionConsistency: held / 4, swappedVerdicts: 4, judgeAgreement: 1, comparedVerdicts: 4 });
      expect(figures!.positionConsistency).toBeGreaterThanOrEqual(0);
      expect(figures!.positionConsistency).toBeLessThanOrEqual(1);
    } finally {
      await arena.close();
      await judgeClient.dispose();
      await client.dispose();
    }
  }, 60_000);
});
