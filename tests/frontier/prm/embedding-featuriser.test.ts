import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EmbeddingFeaturiser, stateText, type TextEmbedder } from "../../../src/frontier/prm/embedding-featuriser.js";
import { LlamaTextEmbedder } from "../../../src/inference/embeddings/llama-text-embedder.js";
import { createRandomModel } from "../../../src/inference/model-files/create-random-model.js";

const norm = (vector: Float32Array) => Math.sqrt(vector.reduce((sum, value) => sum + value * value, 0));
const states = [
  { task: "23+45", cluster: "add-2x2-no-carry", prefix: "" },
  { task: "23+45", cluster: "add-2x2-no-carry", prefix: "6" },
];

describe("EmbeddingFeaturiser", () => {
  it("L2-normalises the embedder's vectors of each state's text", async () => {
    const seen: string[] = [];
    const embedder: TextEmbedder = {
      dimensions: 2,
      embed: async (texts) => {
        seen.push(...texts);
        return texts.map((_, index) => Float32Array.from(index === 0 ? [3, 4] : [0, 0]));
      },
    };
    const featuriser = new EmbeddingFeaturiser(embedder, "policy.gguf");
    expect(featuriser.settings).toEqual({ kind: "embedding", model: "policy.gguf", dimensions: 2 });
    const [first, second] = await featuriser.featurise(states);
    expect(Array.from(first as Float32Array)).toEqual([Math.fround(0.6), Math.fround(0.8)]);
    expect(Array.from(second as Float32Array)).toEqual([0, 0]);
    expect(seen).toEqual(states.map(stateText));
    expect(seen[1]).toBe("Cluster: add-2x2-no-carry\nTask: 23+45\nSolution so far: 6");
  });
});

describe("EmbeddingFeaturiser over LlamaTextEmbedder (real engine)", () => {
  let embedder: LlamaTextEmbedder;

  beforeAll(async () => {
    const folder = await mkdtemp(join(tmpdir(), "selfplay-embedding-"));
    const model = await createRandomModel({ path: join(folder, "tiny.gguf"), preset: "tiny", architecture: "llama", seed: 5 });
    embedder = await LlamaTextEmbedder.create({ modelPath: model.path, contextSize: 64, threads: 1 });
  });

  afterAll(async () => {
    await embedder?.dispose();
  });

  it("embeds states as unit vectors of the model's width, the same each time", async () => {
    const featuriser = new EmbeddingFeaturiser(embedder, embedder.modelPath);
    expect(featuriser.dimensions).toBeGreaterThan(0);
    const [first, second] = await featuriser.featurise(states);
    const [again] = await featuriser.featurise(states.slice(0, 1));
    expect(first).toHaveLength(featuriser.dimensions);
    expect(norm(first as Float32Array)).toBeCloseTo(1, 5);
    expect(again).toEqual(first);
    expect(second).not.toEqual(first);
    // Longer than the context: the middle is dropped rather than failing.
    const [long] = await featuriser.featurise([{ ...states[0]!, prefix: "7".repeat(500) }]);
    expect(norm(long as Float32Array)).toBeCloseTo(1, 5);
  });
});
