import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { Arena } from "../../../src/arena/arena.js";
import { ArtifactStore } from "../../../src/arena/artifact-store.js";
import type { RolloutPoolOptions } from "../../../src/arena/pool/rollout-pool-options.js";
import { WorkerEngineClient } from "../../../src/arena/pool/worker-engine-client.js";
import type { InferenceClient, WeightUpdate } from "../../../src/core/inference-client.js";
import type { GenerateResult } from "../../../src/core/schemas/generate-result.js";
import { ARITHMETIC_TOPICS } from "../../../src/tasks/proposer-solver/proposer-episode.js";
import { LlamaInferenceClient } from "../../../src/inference/llama/llama-inference-client.js";
import { createRandomModel } from "../../../src/inference/model-files/create-random-model.js";
import { episodeModule, registerEpisodes } from "./pool-fixtures.js";

const MODULE = episodeModule();
const ENGINE = { sequences: 4 } as const;

/** Two batches of grouped questions and proposals, sampled at temperature 1 with seeds from the run; `syncs[i]` is applied before batch i. */
async function play(client: InferenceClient, syncs: ReadonlyArray<WeightUpdate | undefined>, pool?: RolloutPoolOptions): Promise<GenerateResult[][]> {
  const arena = new Arena({ client, seed: 8, concurrency: 4, samplerDefaults: { maxTokens: 8 }, ...(pool && { pool }) });
  await registerEpisodes(arena, MODULE, {
    question: ArtifactStore.of([3, 4, 5].map((value) => ({ question: `${value}+${value}?`, expected: String(2 * value) }))),
    propose: ArtifactStore.of(ARITHMETIC_TOPICS.map((topic) => ({ topic }))),
  });
  const batches: GenerateResult[][] = [];
  try {
    for (const sync of syncs) {
      if (sync) await client.swapWeights(sync);
      batches.push(await arena.generateRollouts(arena.getBatch([{ episodeType: "question", count: 2, groupSize: 2 }, { episodeType: "propose", count: 2 }])));
    }
  } finally {
    await arena.close();
    await client.dispose();
  }
  return batches;
}

/**
 * The engine's logprobs of one sequence move by ~1e-6 with what it is batched
 * with (tests/inference/llama: alone vs in a batch), and batches differ between
 * pooled and in-process runs: tokens and everything else must match exactly, logprobs to 1e-5.
 */
function expectSameRollouts(actual: GenerateResult[][], expected: GenerateResult[][]): void {
  const logprobs = (batches: GenerateResult[][]) => batches.flat().flatMap((result) => result.rollout.steps.flatMap((step) => step.completionLogprobs));
  const withoutLogprobs = (batches: GenerateResult[][]) =>
    JSON.parse(JSON.stringify(batches, (key, value: unknown) => (key === "completionLogprobs" ? undefined : value))) as unknown;
  expect(withoutLogprobs(actual)).toEqual(withoutLogprobs(expected));
  const expectedLogprobs = logprobs(expected);
  expect(logprobs(actual)).toHaveLength(expectedLogprobs.length);
  logprobs(actual).forEach((logprob, index) => expect(Math.abs(logprob - (expectedLogprobs[index] as number))).toBeLessThan(1e-5));
}

const versions = (batch: GenerateResult[] | undefined) => new Set(batch?.flatMap((result) => result.rollout.steps.map((step) => step.policyVersion)));

describe("RolloutPool on the real engine", () => {
  let modelPath: string;
  let syncs: WeightUpdate[];
  let reference: GenerateResult[][];

  beforeAll(async () => {
    const folder = await mkdtemp(join(tmpdir(), "selfplay-pool-engine-"));
    modelPath = (await createRandomModel({ path: join(folder, "tiny.gguf"), preset: "tiny", architecture: "llama", seed: 1 })).path;
    const next = (await createRandomModel({ path: join(folder, "tiny-2.gguf"), preset: "tiny", architecture: "llama", seed: 2 })).path;
    syncs = [{ policyVersion: 1, modelPath: next }];
    reference = await play(await LlamaInferenceClient.create({ modelPath, ...ENGINE }), [undefined, syncs[0]]);
  });

  it("gives the in-process rollouts with one shared engine serving two workers, before and after a weight sync", async () => {
    expect(reference.flat().every((result) => result.rollout.steps.every((step) => step.completionTokenIds.length > 0))).toBe(true);
    expect(versions(reference[1])).toEqual(new Set([1]));
    const pooled = await play(await LlamaInferenceClient.create({ modelPath, ...ENGINE }), [undefined, syncs[0]], { workers: 2, episodes: MODULE });
    expectSameRollouts(pooled, reference);
  });

  it("gives the in-process rollouts with an engine in each worker, and every worker swaps before its next batch", async () => {
    const client = await WorkerEngineClient.create({ modelPath, ...ENGINE });
    const local = await LlamaInferenceClient.create({ modelPath, ...ENGINE });
    expect(client.capabilities).toEqual(local.capabilities);
    await local.dispose();
    const onThisThread = vi.spyOn(client, "generate");
    const pooled = await play(client, [undefined, syncs[0]], { workers: 2, engine: "per-worker", episodes: MODULE });
    expectSameRollouts(pooled, reference);
    // Every call was served by the workers' engines, none by an engine on this thread.
    expect(onThisThread).not.toHaveBeenCalled();
  });

  it("lets per-worker engines lag by maxStaleness versions, recorded on each Step, then swap", async () => {
    const client = await WorkerEngineClient.create({ modelPath, ...ENGINE });
    const stale = await play(client, [undefined, syncs[0], { policyVersion: 2, modelPath }], { workers: 2, engine: "per-worker", maxStaleness: 1, episodes: MODULE });
    // Version 1 is within the bound: the second batch still runs on version 0, the same rollouts as without a sync.
    expect(versions(stale[1])).toEqual(new Set([0]));
    const unsynced = await play(await LlamaInferenceClient.create({ modelPath, ...ENGINE }), [undefined, undefined]);
    expectSameRollouts(stale.slice(0, 2), unsynced);
    // Version 2 is two behind: every worker swaps before the third batch.
    expect(versions(stale[2])).toEqual(new Set([2]));
  });
});
