import { describe, expect, it } from "vitest";
import { Arena } from "../../../src/arena/arena.js";
import type { RolloutPoolOptions } from "../../../src/arena/pool/rollout-pool-options.js";
import { loadEpisodeModule } from "../../../src/arena/pool/episode-module.js";
import type { GenerationRequest } from "../../../src/core/inference-client.js";
import { ScriptedInferenceClient } from "../../../src/inference/scripted-inference-client.js";
import { parseArithmeticExpression } from "../../../src/tasks/arithmetic/arithmetic-expression.js";
import { riddleEpisodeModule } from "../../../src/tasks/riddles/riddle-episodes.js";

const last = (request: GenerationRequest) => request.messages.at(-1)?.content ?? "";
const CONFIG = { domain: "arithmetic", solvers: 4, waveSize: 2, validityRetries: 1, statusEverySolvers: 2 } as const;

/** Four riddle episodes (one with a rejected first draft) in process or in pool workers: results and the training batch. */
async function play(pool?: RolloutPoolOptions) {
  const client = new ScriptedInferenceClient({
    capabilities: { grammars: true },
    rules: [
      { when: (request) => last(request).startsWith("propose "), reply: (request, random) => (random.next() < 0.5 ? "x" : `${random.integer(30)}+${random.integer(30)}`) },
      { when: (request) => last(request).endsWith("="), reply: (request, random) => String(parseArithmeticExpression(last(request).slice(0, -1))!.answer + (random.next() < 0.5 ? 0 : 1)) },
      { when: (request) => last(request).startsWith("status "), reply: "steady" },
    ],
  });
  const arena = new Arena({ client, seed: 9, concurrency: 3, ...(pool && { pool }) });
  for (const episode of await loadEpisodeModule(riddleEpisodeModule(CONFIG))) arena.register(episode);
  try {
    const results = await arena.generateRollouts([0, 1, 2, 3].map((episodeIndex) => ({ episodeType: "riddle", artifact: { episodeIndex } })));
    return { results, training: arena.buildTrainingBatch(results, arena.assignCredit(results), 0) };
  } finally {
    await arena.close();
  }
}

describe("the riddle episode module in RolloutPool workers", () => {
  it("plays the same rollouts and training batch as in process, rejected drafts left out alike", async () => {
    const inProcess = await play();
    expect(inProcess.results.every((result) => result.outcome.status === "scored")).toBe(true);
    expect(inProcess.results.some((result) => result.rollout.steps.some((step) => step.roleId === "riddler-rejected"))).toBe(true);
    expect(inProcess.training.stats.skippedSteps).toBeGreaterThan(0);
    expect(inProcess.training.records.length).toBeGreaterThan(0);
    expect(await play({ workers: 2, episodes: riddleEpisodeModule(CONFIG) })).toEqual(inProcess);
  });
});
