import { describe, expect, it } from "vitest";
import { Arena } from "../../../../src/arena/arena.js";
import { ArtifactStore } from "../../../../src/arena/artifact-store.js";
import { loadLlama } from "../../../../src/inference/llama/load-llama.js";
import { DebateEpisode } from "../../../../src/tasks/debate/debate-episode.js";
import { REAL_MODEL_SKIP_REASON, SMOLLM2_PATH, realModelAvailable } from "../../real-model.js";
import { useRealModelClient } from "../../use-real-model-client.js";

const MOTION = "Tabs are better than spaces.";

describe(`a debate on SmolLM2${REAL_MODEL_SKIP_REASON}`, () => {
  const client = useRealModelClient({ sequences: 2, contextSize: 512 });

  it.skipIf(!realModelAvailable)("puts the earlier turns in the template's roles: the other side's as user turns, the speaker's own as assistant turns", async () => {
    const episode = new DebateEpisode({ rounds: 2, maxTokens: 6, judgeOrders: "one" });
    const arena = new Arena({ client: client(), seed: 11, concurrency: 1 }).register(episode, ArtifactStore.of([{ topic: MOTION }]));
    const [result] = await arena.generateRollouts(arena.getBatch([{ episodeType: "debate", count: 1, groupSize: 1 }]));
    const steps = result!.rollout.steps;
    expect(steps.map((step) => step.roleId)).toEqual(["aff", "neg", "aff", "neg"]);
    const [first, second, third, fourth] = steps.map((step) => step.completion[0]!.content) as [string, string, string, string];
    const system = (roleId: string) => episode.roles.find((role) => role.id === roleId)!.systemPrompt;

    // The messages the episode builds for the last turn: `neg` sees its own turn as the assistant's, `aff`'s as the user's.
    expect(steps[3]!.prompt).toEqual([
      { role: "system", content: system("neg") },
      { role: "user", content: `Motion: ${MOTION}\n\naff: ${first}` },
      { role: "assistant", content: second },
      { role: "user", content: `aff: ${third}` },
    ]);
    // And the tokens: ChatML blocks as SmolLM2's template writes them, tokenized with <|im_start|>/<|im_end|> as one id each.
    const vocabulary = await (await loadLlama("cpu")).loadModel({ modelPath: SMOLLM2_PATH, vocabOnly: true });
    try {
      const block = (role: string, content: string) => `<|im_start|>${role}\n${content}<|im_end|>\n`;
      const expected = [
        [block("system", system("aff")), block("user", `Motion: ${MOTION}`)],
        [block("system", system("neg")), block("user", `Motion: ${MOTION}\n\naff: ${first}`)],
        [block("system", system("aff")), block("user", `Motion: ${MOTION}`), block("assistant", first), block("user", `neg: ${second}`)],
        [block("system", system("neg")), block("user", `Motion: ${MOTION}\n\naff: ${first}`), block("assistant", second), block("user", `aff: ${third}`)],
      ].map((blocks) => `${blocks.join("")}<|im_start|>assistant\n`);
      for (const [index, step] of steps.entries()) {
        expect(vocabulary.detokenize(step.promptTokenIds as never[], true)).toBe(expected[index]);
        expect(step.promptTokenIds).toEqual(vocabulary.tokenize(expected[index]!, true));
      }
      expect(fourth.length).toBeGreaterThan(0);
    } finally {
      await vocabulary.dispose();
    }
  });
});
