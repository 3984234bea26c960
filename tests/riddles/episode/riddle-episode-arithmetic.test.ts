import { describe, expect, it } from "vitest";
import { Arena } from "../../../src/arena/arena.js";
import type { GenerationRequest } from "../../../src/core/inference-client.js";
import { ScriptedInferenceClient } from "../../../src/inference/scripted-inference-client.js";
import { REJECTED_RIDDLER_ROLE_ID } from "../../../src/riddles/episode/riddle-roles.js";
import { createRiddleEpisodes } from "../../../src/riddles/episode/riddle-episodes.js";
import type { RiddleConfigInput } from "../../../src/riddles/riddle-config.js";
import { RiddleEpisodeOutcomeSchema, type RiddleEpisodeOutcome } from "../../../src/riddles/riddle-outcome.js";

const last = (request: GenerationRequest) => request.messages.at(-1)?.content ?? "";

/** Riddler replies in order (one per draft); solvers answer by `solve(problem, call index)`. */
async function play(config: RiddleConfigInput, riddler: readonly string[], solve: (problem: string, index: number) => string, seed = 1) {
  let drafts = 0;
  let solves = 0;
  const client = new ScriptedInferenceClient({
    capabilities: { grammars: true },
    rules: [
      { when: (request) => last(request).startsWith("propose "), reply: () => riddler[Math.min(drafts++, riddler.length - 1)] as string },
      { when: (request) => last(request).endsWith("="), reply: (request) => solve(last(request).slice(0, -1), solves++) },
    ],
  });
  const arena = new Arena({ client, seed });
  for (const episode of createRiddleEpisodes({ domain: "arithmetic", ...config })) arena.register(episode);
  const [result] = await arena.generateRollouts([{ episodeType: "riddle", artifact: { episodeIndex: 0 } }]);
  return { result: result!, outcome: RiddleEpisodeOutcomeSchema.parse(result!.rollout.artifacts) as RiddleEpisodeOutcome, arena, client };
}

describe("the riddle episode, arithmetic domain (scripted client)", () => {
  it("retries an invalid riddle, leaves its Step out of training, and rewards the solvers by correctness", async () => {
    const { result, outcome, arena } = await play({ solvers: 4, waveSize: 4, earlyStop: { enabled: false } }, ["hello", "12+7"], (_problem, index) => (index % 2 === 0 ? "19" : "20"));
    expect(result.outcome.status).toBe("scored");
    expect(outcome.attempts.map((attempt) => attempt.valid)).toEqual([false, true]);
    expect(outcome.riddle?.riddle).toBe("12+7");
    expect(outcome.solveRate).toBe(0.5);
    expect(result.rewards.riddler).toBeCloseTo(1, 12);
    expect(result.rewards[REJECTED_RIDDLER_ROLE_ID]).toBe(0);
    expect(result.children.map((child) => child.rewards.solver)).toEqual([1, 0, 1, 0]);
    const batch = arena.buildTrainingBatch([result], arena.assignCredit([result]), 0);
    expect(batch.records.filter((record) => record.roleId === "riddler")).toHaveLength(1);
    expect(batch.records.filter((record) => record.roleId === REJECTED_RIDDLER_ROLE_ID)).toHaveLength(0);
    expect(batch.stats.skippedSteps).toBe(1);
  });
});
