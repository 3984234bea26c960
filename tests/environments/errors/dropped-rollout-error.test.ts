import { describe, expect, it } from "vitest";
import { Arena } from "../../../src/arena/arena.js";
import { batchMetrics } from "../../../src/arena/batch-metrics.js";
import type { Verifier } from "../../../src/core/verifiers/verifier.js";
import { DroppedRolloutError } from "../../../src/environments/errors/index.js";
import { ScriptedInferenceClient } from "../../../src/inference/scripted-inference-client.js";
import { ask, QuestionEpisode } from "../../helpers/echo-episode.js";

/** An environment's own reason to drop a rollout, as a task declares one (arithmetic's HeldOutProblemError). */
class OffTopicError extends DroppedRolloutError {
  override readonly name = "OffTopicError";
}

/** A verifier that throws `error` on the question "drop", and scores 1 otherwise. */
function throwingOn(error: () => Error): Verifier {
  return {
    score: async (rollout) => {
      if ((rollout.artifact as { question: string }).question === "drop") throw error();
      return { rewards: { answerer: 1 } };
    },
  };
}

async function outcomes(error: () => Error) {
  const client = new ScriptedInferenceClient({ rules: [{ when: /./, reply: () => "ok" }] });
  const arena = new Arena({ client, seed: 1 }).register(new QuestionEpisode("question", {}, throwingOn(error)));
  const results = await arena.generateRollouts([ask("drop", "ok"), ask("keep", "ok")]);
  return { results, batch: arena.buildTrainingBatch(results, arena.assignCredit(results), 0) };
}

describe("DroppedRolloutError", () => {
  it("drops its rollout: outcome dropped with the error as its reason, no reward, no record, counted apart from failures", async () => {
    const { results, batch } = await outcomes(() => new OffTopicError("the question is off topic; it is dropped"));
    expect(results.map((result) => result.outcome)).toEqual([
      { status: "dropped", stage: "score", reason: { name: "OffTopicError", message: "the question is off topic; it is dropped" } },
      { status: "scored" },
    ]);
    expect(results[0]!.rewards).toEqual({});
    expect(batch.records.map((record) => record.rolloutId)).toEqual([results[1]!.rollout.id]);
    expect(batch.stats).toMatchObject({ rollouts: 2, failedRollouts: 0 });
    expect(batchMetrics(0, results, batch, 1)).toMatchObject({ scored: 1, failed: 0, dropped: 1, failuresByError: {}, dropsByReason: { OffTopicError: 1 } });
  });

  it("is told by its mark, not its name: an Error merely named like it is a failure", async () => {
    const { results } = await outcomes(() => Object.assign(new Error("x is undefined"), { name: "OffTopicError" }));
    expect(results[0]!.outcome).toEqual({ status: "failed", stage: "score", error: { name: "OffTopicError", message: "x is undefined" } });
  });
});
