import { z } from "zod";
import { describe, expect, it } from "vitest";
import { Arena, ArtifactStore, ExactMatchVerifier, RoleSchema, SingleTurnEpisode } from "../src/index.js";
import { ScriptedInferenceClient } from "../src/testing.js";

// A copy of docs/concepts.md's "Writing an episode" example (imports from ../src instead of "selfplay"), kept runnable.
const Question = z.object({ question: z.string(), expected: z.string() });

class CapitalEpisode extends SingleTurnEpisode<z.infer<typeof Question>> {
  readonly type = "capital";
  readonly roles = [RoleSchema.parse({ id: "student", systemPrompt: "Answer with one word.", sampler: { maxTokens: 8 } })];
  readonly verifier = new ExactMatchVerifier({ roleId: "student" });
  protected readonly roleId = "student";
  protected readonly artifactSchema = Question;
  protected prompt(artifact: z.infer<typeof Question>) {
    return [{ role: "user" as const, content: artifact.question }];
  }
  override finalize(state: { response: { text: string } }, artifact: z.infer<typeof Question>) {
    return { answer: state.response.text, expected: artifact.expected };
  }
}

describe("README example", () => {
  it("runs and yields group-normalised advantages", async () => {
    const client = new ScriptedInferenceClient({ rules: [{ when: /France/, reply: "Paris" }, { when: /.*/s, reply: "Rome" }] });
    const arena = new Arena({ client, seed: 42 }).register(
      new CapitalEpisode(),
      ArtifactStore.of([
        { question: "Capital of France?", expected: "Paris" },
        { question: "Capital of Peru?", expected: "Lima" },
      ]),
    );
    const requests = arena.getBatch([{ episodeType: "capital", count: 4, groupSize: 4 }]);
    const results = await arena.generateRollouts(requests);
    const batch = arena.buildTrainingBatch(results, arena.assignCredit(results), 0);
    expect(batch.records).toHaveLength(16);
    // Every member of a group answers alike here (the script is deterministic), so GRPO gives 0 everywhere.
    expect(batch.records.every((record) => record.advantage === 0)).toBe(true);
    for (const result of results) {
      const { question } = Question.parse(result.rollout.artifact);
      expect(result.rewards).toEqual({ student: question.includes("France") ? 1 : 0 });
    }
  });
});
