import { describe, expect, it } from "vitest";
import { Arena } from "../../../src/arena/arena.js";
import { ArtifactStore } from "../../../src/arena/artifact-store.js";
import type { RolloutPoolOptions } from "../../../src/arena/pool/rollout-pool-options.js";
import type { GenerationOutput, InferenceClient } from "../../../src/core/inference-client.js";
import { ARITHMETIC_TOPICS } from "../../../src/tasks/proposer-solver/proposer-episode.js";
import { ScriptedInferenceClient } from "../../../src/inference/scripted-inference-client.js";
import { ARITHMETIC_RULES, GatedClient, episodeModule, question, registerEpisodes } from "./pool-fixtures.js";

const MODULE = episodeModule();

/**
 * Two batches of grouped questions and proposer-solver games (4 solver
 * sub-episodes per valid problem), a weight sync between them: results,
 * credit, training batches, event indices and the arena's state afterwards.
 */
async function playSchedule(client: InferenceClient, pool?: RolloutPoolOptions) {
  const arena = new Arena({ client, seed: 21, concurrency: 4, ...(pool && { pool }) });
  await registerEpisodes(arena, MODULE, {
    question: ArtifactStore.of([2, 3, 5, 7, 11].map((value) => ({ question: `${value}+${value + 1}?`, expected: String(2 * value + 1) }))),
    propose: ArtifactStore.of(ARITHMETIC_TOPICS.map((topic) => ({ topic }))),
  });
  const ended: number[] = [];
  arena.on("rollout-end", ({ index }) => ended.push(index));
  const batches = [];
  try {
    for (let batchIndex = 0; batchIndex < 2; batchIndex++) {
      if (batchIndex === 1) await client.swapWeights({ policyVersion: 1, modelPath: "policy-1.gguf" });
      const results = await arena.generateRollouts(
        arena.getBatch([
          { episodeType: "question", count: 3, groupSize: 2 },
          { episodeType: "propose", count: 4 },
        ]),
      );
      batches.push({ results, training: arena.buildTrainingBatch(results, arena.assignCredit(results), batchIndex) });
    }
  } finally {
    await arena.close();
  }
  return { batches, ended: ended.sort((a, b) => a - b), snapshot: arena.snapshot() };
}

describe("pooled rollouts", () => {
  it("equal in-process rollouts for the same seed and schedule: results, credit, training batches, arena state", async () => {
    const scripted = () => new ScriptedInferenceClient({ rules: ARITHMETIC_RULES });
    const inProcess = await playSchedule(scripted());
    // The schedule exercises what matters: groups, sub-episodes, a weight sync.
    const results = inProcess.batches.flatMap((batch) => batch.results);
    expect(results.some((result) => result.children.length === 4)).toBe(true);
    expect(new Set(inProcess.batches[1]?.results.flatMap((result) => result.rollout.steps.map((step) => step.policyVersion)))).toEqual(new Set([1]));
    expect(inProcess.batches[0]?.training.records.length).toBeGreaterThan(0);

    expect(await playSchedule(scripted(), { workers: 2, episodes: MODULE })).toEqual(inProcess);
    // One episode per worker and no queue: a different interleaving, the same rollouts.
    expect(await playSchedule(scripted(), { workers: 3, episodesPerWorker: 1, maxQueue: 0, episodes: MODULE })).toEqual(inProcess);
  });

  it("moves the outputs' typed arrays to the workers instead of copying them", async () => {
    const client = new ScriptedInferenceClient({ rules: ARITHMETIC_RULES });
    const served: GenerationOutput[] = [];
    const generate = client.generate.bind(client);
    client.generate = async (requests, options) => {
      const outputs = await generate(requests, options);
      served.push(...outputs);
      return outputs;
    };
    const arena = await registerEpisodes(new Arena({ client, seed: 3, pool: { workers: 1, episodes: MODULE } }), MODULE);
    try {
      const [result] = await arena.generateRollouts([question(20, 22)]);
      expect(result?.rollout.steps[0]?.completionTokenIds).toEqual([...Buffer.from("42")].map((byte) => byte + 3));
    } finally {
      await arena.close();
    }
    // A transferred buffer is detached here: nothing of it was copied or serialised.
    expect(served).toHaveLength(1);
    expect(served[0]?.completionTokenIds.buffer.byteLength).toBe(0);
    expect(served[0]?.promptTokenIds.buffer.byteLength).toBe(0);
  });

  it("has the model calls of episodes on different workers in flight on the one engine at once", async () => {
    // Each worker runs one episode; the client holds every call until it has seen both, which only
    // happens if the two workers' calls reach it concurrently (the engine then decodes them together).
    const client = new GatedClient(2);
    const arena = await registerEpisodes(new Arena({ client, seed: 3, pool: { workers: 2, episodesPerWorker: 1, episodes: MODULE } }), MODULE);
    try {
      const batch = arena.generateRollouts([question(1, 2), question(3, 4)]);
      await client.arrived;
      client.release();
      expect((await batch).map((result) => result.rewards)).toEqual([{ answerer: 1 }, { answerer: 1 }]);
    } finally {
      await arena.close();
    }
  });
});
