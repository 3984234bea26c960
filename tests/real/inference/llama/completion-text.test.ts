import { describe, expect, it } from "vitest";
import { Arena } from "../../../../src/arena/arena.js";
import { ArtifactStore } from "../../../../src/arena/artifact-store.js";
import { DEFAULT_SAMPLER } from "../../../../src/core/schemas/sampler-settings.js";
import { QuestionEpisode } from "../../../helpers/echo-episode.js";
import { REAL_MODEL_SKIP_REASON, realModelAvailable } from "../../real-model.js";
import { useRealModelClient } from "../../use-real-model-client.js";
import { useRealModelVocabulary } from "../../use-real-model-vocabulary.js";

describe(`SmolLM2's end of turn${REAL_MODEL_SKIP_REASON}`, () => {
  const client = useRealModelClient({ sequences: 2, contextSize: 256 });
  const vocabulary = useRealModelVocabulary();

  it.skipIf(!realModelAvailable)("<|im_end|> ends the completion, stays in the Step's and the training record's tokens and logprobs, and is out of the text", async () => {
    const endOfTurn = vocabulary().tokenize("<|im_end|>", true);
    expect(endOfTurn).toHaveLength(1);
    expect(vocabulary().isEogToken(endOfTurn[0]!)).toBe(true);
    // Greedy, and the model answers this in a few tokens: the turn ends well inside the budget.
    const arena = new Arena({ client: client(), seed: 5, concurrency: 2 }).register(
      new QuestionEpisode("question", { sampler: { temperature: 0, maxTokens: 24 } }),
      ArtifactStore.of([{ question: "What is 2+2? Answer with a number only.", expected: "4" }]),
    );
    const results = await arena.generateRollouts(arena.getBatch([{ episodeType: "question", count: 1, groupSize: 2 }]));
    const batch = arena.buildTrainingBatch(results, arena.assignCredit(results), 0);
    expect(batch.records).toHaveLength(2);
    for (const [index, result] of results.entries()) {
      const [step] = result.rollout.steps;
      const ids = step!.completionTokenIds;
      expect(step!.finishReason).toBe("stop");
      expect(ids.length).toBeLessThan(24);
      expect(ids.at(-1)).toBe(endOfTurn[0]);
      // Only the last token ends the turn; the text is the tokens before it, the end token's text left out.
      expect(ids.slice(0, -1).filter((id) => vocabulary().isEogToken(id as never))).toEqual([]);
      expect(step!.completion).toEqual([{ role: "assistant", content: vocabulary().detokenize(ids.slice(0, -1) as never[]) }]);
      expect(step!.completion[0]!.content).not.toContain("<|im_end|>");
      expect(step!.completionLogprobs).toHaveLength(ids.length);
      for (const logprob of step!.completionLogprobs) expect(Number.isFinite(logprob)).toBe(true);
      // The trainer gets the end token too: the policy is taught where to stop.
      const record = batch.records[index]!;
      expect(record.completionTokenIds).toEqual(ids);
      expect(record.logprobs).toEqual(step!.completionLogprobs);
    }
  });

  it.skipIf(!realModelAvailable)("at temperature 1 the end token's logprob is the model's own, finite and below 0", async () => {
    const [output] = await client().generate([
      { messages: [{ role: "user", content: "What is 2+2? Answer with a number only." }], sampler: { ...DEFAULT_SAMPLER, seed: 3, maxTokens: 24 }, constraint: null },
    ]);
    const ids = Array.from(output!.completionTokenIds);
    expect(output!.finishReason).toBe("stop");
    expect(vocabulary().isEogToken(ids.at(-1) as never)).toBe(true);
    expect(output!.text).toBe(vocabulary().detokenize(ids.slice(0, -1) as never[]));
    const last = output!.completionLogprobs.at(-1)!;
    expect(Number.isFinite(last) && last < 0).toBe(true);
  });
});
