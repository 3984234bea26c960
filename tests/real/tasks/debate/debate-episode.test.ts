import { describe, expect, it } from "vitest";
import { Arena } from "../../../../src/arena/arena.js";
import { ArtifactStore } from "../../../../src/arena/artifact-store.js";
import type { Messages } from "../../../../src/core/schemas/message.js";
import { DebateEpisode } from "../../../../src/tasks/debate/debate-episode.js";
import { REAL_MODEL_SKIP_REASON, realModelAvailable } from "../../real-model.js";
import { smollm2ChatTemplate } from "../../smollm2-chat-template.js";
import { useRealModelClient } from "../../use-real-model-client.js";
import { useRealModelVocabulary } from "../../use-real-model-vocabulary.js";

const MOTION = "Tabs are better than spaces.";

describe(`a debate on SmolLM2${REAL_MODEL_SKIP_REASON}`, () => {
  const client = useRealModelClient({ sequences: 2, contextSize: 512 });
  const vocabulary = useRealModelVocabulary();

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
    const conversations: Messages[] = [
      [{ role: "system", content: system("aff") }, { role: "user", content: `Motion: ${MOTION}` }],
      [{ role: "system", content: system("neg") }, { role: "user", content: `Motion: ${MOTION}\n\naff: ${first}` }],
      [{ role: "system", content: system("aff") }, { role: "user", content: `Motion: ${MOTION}` }, { role: "assistant", content: first }, { role: "user", content: `neg: ${second}` }],
      [{ role: "system", content: system("neg") }, { role: "user", content: `Motion: ${MOTION}\n\naff: ${first}` }, { role: "assistant", content: second }, { role: "user", content: `aff: ${third}` }],
    ];
    const expected = conversations.map((messages) => smollm2ChatTemplate(messages));
    for (const [index, step] of steps.entries()) {
      expect(vocabulary().detokenize(step.promptTokenIds as never[], true)).toBe(expected[index]);
      expect(step.promptTokenIds).toEqual(vocabulary().tokenize(expected[index]!, true));
    }
    expect(fourth.length).toBeGreaterThan(0);
  });
});
