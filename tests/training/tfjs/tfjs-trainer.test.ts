import { mkdtemp, readFile, readdir, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import {
  Arena,
  LlamaInferenceClient,
  createExactMatchEnvironment,
  createTrainer,
  loadEpisodeModule,
  type TrainingBatch,
} from "../../../src/index.js";
import { TfjsTrainer } from "../../../src/entries/tfjs.js";
import { createRandomModel } from "../../../src/inference/model-files/create-random-model.js";
import { maxWeightDifference } from "../reports/run-comparison.js";

/** An entropy bonus: a random model earns no reward, and the bonus makes every record count anyway. */
const CONFIGURATION = { algorithm: "grpo", minibatchSize: 64, loss: { entropyCoefficient: 0.05 }, optimizer: { learningRate: 1e-3 } } as const;

describe("a training step driven by hand through the public API (real engine, tfjs trainer)", () => {
  let folder: string;
  let projectModel: string;
  let userModel: string;
  let data: string;

  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), "selfplay-tfjs-trainer-"));
    projectModel = (await createRandomModel({ path: join(folder, "tiny.gguf"), preset: "tiny", architecture: "llama", seed: 1 })).path;
    // Named like a model the project did not make: it trains a LoRA by default.
    userModel = (await createRandomModel({ path: join(folder, "user.gguf"), preset: "tiny", architecture: "qwen2", seed: 2, name: "someone-elses-model" })).path;
    data = join(folder, "questions.jsonl");
    await writeFile(data, ["1+1=", "2+2=", "3+3=", "4+4="].map((question, index) => JSON.stringify({ question, answer: String(2 * (index + 1)) })).join("\n"));
  });

  /** One step of the exact-match environment on `modelPath`: arena → TrainingBatch, the way a user composes it. */
  async function rolloutBatch(client: LlamaInferenceClient, step: number): Promise<TrainingBatch> {
    const environment = await createExactMatchEnvironment({ data, prompts: 2, groupSize: 2, maxTokens: 4, evaluateQuestions: 1 });
    const arena = new Arena({ client, seed: 5 });
    for (const episode of await loadEpisodeModule(environment.episodes)) arena.register(episode, environment.stores[episode.type]);
    const results = await arena.generateRollouts(arena.getBatch(environment.plan));
    await arena.close();
    return arena.buildTrainingBatch(results, arena.assignCredit(results), step);
  }

  it("updates full weights, syncs them to the engine as policy version 1, and the next Steps carry it", async () => {
    const client = await LlamaInferenceClient.create({ modelPath: projectModel, sequences: 4 });
    const trainer = await createTrainer("tfjs", { modelPath: projectModel, configuration: CONFIGURATION, syncDirectory: join(folder, "full-policies"), seed: 1 });
    try {
      expect(trainer.weights).toBe("full");
      const batch = await rolloutBatch(client, 1);
      expect(batch.records).toHaveLength(4);
      const update = await trainer.update(batch);
      expect(update.trainedRecords).toBe(4);
      expect(update.optimizerSteps).toBe(1);
      expect(trainer.updates).toBe(1);
      const sync = await trainer.sync(client, 1);
      expect(sync).toMatchObject({ format: "full", version: 1, path: join(folder, "full-policies", "policy-v1.gguf") });
      expect(await maxWeightDifference(projectModel, sync.path)).toBeGreaterThan(1e-5);
      const next = await rolloutBatch(client, 2);
      expect(next.records.every((record) => record.policyVersion === 1)).toBe(true);
    } finally {
      await trainer.dispose();
      await client.dispose();
    }
  });

  it("trains a LoRA over a model the project did not make, serves the adapter, and leaves the base file untouched", async () => {
    const client = await LlamaInferenceClient.create({ modelPath: userModel, sequences: 4 });
    const trainer = await createTrainer("tfjs", { modelPath: userModel, lora: { rank: 4, alpha: 8, targets: ["attn_q", "attn_v"] }, configuration: CONFIGURATION, syncDirectory: join(folder, "lora-policies"), seed: 1 });
    try {
      expect(trainer.weights).toBe("lora");
      const before = await readdir(folder);
      const baseBytes = await readFile(userModel);
      await trainer.update(await rolloutBatch(client, 1));
      const sync = await trainer.sync(client, 1);
      expect(sync).toMatchObject({ format: "adapter", path: join(folder, "lora-policies", "policy-v1.lora.gguf") });
      const final = await trainer.exportFinal(join(folder, "final.lora.gguf"));
      // llama.cpp loads it over the base.
      const served = await LlamaInferenceClient.create({ modelPath: userModel, loraPath: final, sequences: 1 });
      await served.dispose();
      expect((await readFile(userModel)).equals(baseBytes)).toBe(true);
      expect((await readdir(folder)).filter((name) => !before.includes(name))).toEqual(["final.lora.gguf"]);
    } finally {
      await trainer.dispose();
      await client.dispose();
    }
  });

  it("restores a checkpoint (weights, AdamW moments, minibatch stream) so the next update equals the uninterrupted one", async () => {
    const client = await LlamaInferenceClient.create({ modelPath: projectModel, sequences: 4 });
    const [first, second] = [await rolloutBatch(client, 1), await rolloutBatch(client, 2)];
    await client.dispose();
    const options = { modelPath: projectModel, configuration: { ...CONFIGURATION, minibatchSize: 2, epochs: 2 }, seed: 3 };
    const uninterrupted = await TfjsTrainer.create({ ...options, syncDirectory: join(folder, "a") });
    await uninterrupted.update(first);
    const checkpoint = join(folder, "checkpoint");
    await uninterrupted.saveCheckpoint(checkpoint);
    expect((await readdir(checkpoint)).sort()).toEqual(["optimizer.gguf", "trainer.json", "weights.gguf"]);
    const expected = await uninterrupted.update(second);
    const resumed = await TfjsTrainer.create({ ...options, syncDirectory: join(folder, "b") });
    await resumed.restoreCheckpoint(checkpoint);
    expect(resumed.updates).toBe(1);
    const actual = await resumed.update(second);
    expect({ ...actual, elapsedMs: 0 }).toEqual({ ...expected, elapsedMs: 0 });
    const [a, b] = [await uninterrupted.exportFinal(join(folder, "a.gguf")), await resumed.exportFinal(join(folder, "b.gguf"))];
    expect(await maxWeightDifference(a, b)).toBe(0);
    await uninterrupted.dispose();
    await resumed.dispose();
  });

  it("refuses a checkpoint of another base model, naming the file and the field", async () => {
    const trainer = await TfjsTrainer.create({ modelPath: userModel, weights: "full", syncDirectory: join(folder, "c") });
    await expect(trainer.restoreCheckpoint(join(folder, "checkpoint"))).rejects.toThrow(/trainer\.json: modelPath: got ".*tiny\.gguf"; expected the trainer's base model .*user\.gguf/);
    await trainer.dispose();
  });
});
