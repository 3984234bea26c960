import { appendFileSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { GenerationRequest } from "../../../src/core/inference-client.js";
import { ScriptedInferenceClient } from "../../../src/inference/scripted-inference-client.js";
import { runRiddleCurriculum, type RiddleCurriculumProgress } from "../../../src/riddles/curriculum/run-riddle-curriculum.js";
import { parseArithmeticExpression } from "../../../src/tasks/arithmetic/arithmetic-expression.js";
import { createRiddleEpisodes } from "../../../src/tasks/riddles/riddle-episodes.js";
import { parseRiddleConfig } from "../../../src/riddles/riddle-config.js";

const last = (request: GenerationRequest) => request.messages.at(-1)?.content ?? "";

/** The real riddle episodes (arithmetic domain) on a scripted client; `onProgress` may write to the inbox. */
async function play(out: string, onProgress?: (progress: RiddleCurriculumProgress) => void) {
  const config = parseRiddleConfig({ domain: "arithmetic", solvers: 6, waveSize: 3, statusEverySolvers: 3 });
  const client = new ScriptedInferenceClient({
    capabilities: { grammars: true },
    rules: [
      { when: (request) => last(request).startsWith("propose "), reply: (_request, random) => `${10 + random.integer(90)}+${random.integer(10)}` },
      { when: (request) => last(request).endsWith("="), reply: (request, random) => String(parseArithmeticExpression(last(request).slice(0, -1))!.answer + (random.next() < 0.5 ? 0 : 1)) },
      { when: (request) => last(request).startsWith("status "), reply: "steady" },
      { when: /You are the actor orchestrating/, reply: (request) => `Asked with seed ${request.sampler.seed}: the careful solvers lead.` },
    ],
  });
  const result = await runRiddleCurriculum({ config, episodes: 3, out, client, seed: 11, createEpisodes: (hooks) => createRiddleEpisodes(config, { hooks }), ...(onProgress && { onProgress }) });
  return { result, client };
}

describe("the actor inbox, on the riddle episode", () => {
  it("answers questions into the outbox between solvers from its own seed stream; rollouts.jsonl is byte-identical with or without them", async () => {
    const folder = mkdtempSync(join(tmpdir(), "selfplay-inbox-"));
    const [quiet, asked] = [join(folder, "quiet"), join(folder, "asked")];
    await play(quiet);
    const { result, client } = await play(asked, (progress) => {
      if (progress.episodeIndex === 1 && progress.solversRun === 1) appendFileSync(join(asked, "actor_inbox.md"), "How is it going?\n");
      if (progress.episodeIndex === 2 && progress.solversRun === 4) appendFileSync(join(asked, "actor_inbox.md"), "Which profile leads?\n");
    });
    for (const file of ["rollouts.jsonl", "training-batch.jsonl", "metrics.jsonl", "dataset.jsonl", "riddler_memory.md", "actor_memory.md"]) {
      expect(readFileSync(join(asked, file)).equals(readFileSync(join(quiet, file))), file).toBe(true);
    }
    expect(result.inboxAnswers).toBe(2);
    const outbox = readFileSync(join(asked, "actor_outbox.md"), "utf8");
    expect(outbox).toMatch(/^## Q1 \(episode 1, after solver [1-6]\/6 \(solved so far \d\)\)\n\n> How is it going\?\n\nAsked with seed \d+: the careful solvers lead\.\n\n## Q2 \(episode 2, after solver [4-6]\/6 /);
    const seeds = client.requests.filter((request) => request.messages[0]?.content.startsWith("You are the actor")).map((request) => request.sampler.seed);
    expect(seeds).toHaveLength(2);
    expect(outbox).toContain(`Asked with seed ${seeds[0]}:`);
    // The inbox's prompt carries the episode's state: the riddle and the count solved so far.
    const prompt = client.requests.find((request) => request.messages[0]?.content.startsWith("You are the actor"))!;
    expect(last(prompt)).toMatch(/^Episode 1\. Riddle: \d+\+\d\nSolvers run \d\/6, solved so far \d\./);
  });
});
