import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { InvalidInputError } from "../../../../src/core/errors/index.js";
import { GgufReader } from "../../../../src/gguf/gguf-reader.js";
import { createRandomModel } from "../../../../src/inference/model-files/create-random-model.js";
import { createTrainableAdapter } from "../../../../src/training/tfjs/lora/create-trainable-adapter.js";
import { Policy } from "../../../../src/training/tfjs/policy/policy.js";

let folder: string;
let modelPath: string;
beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), "selfplay-trainable-adapter-"));
  modelPath = (await createRandomModel({ path: join(folder, "base.gguf"), preset: "tiny", architecture: "llama", seed: 3 })).path;
});
afterAll(async () => {
  await rm(folder, { recursive: true, force: true });
});

describe("createTrainableAdapter", () => {
  it("writes A uniform in ±1/√in and B zero for every block's targets; the adapted policy trains only those factors", async () => {
    const path = join(folder, "adapter.gguf");
    const written = await createTrainableAdapter({ modelPath, path, rank: 4, alpha: 8, targets: ["attn_q", "ffn_down"], seed: 7 });
    expect(written.baseTensorNames).toEqual(["blk.0.attn_q.weight", "blk.0.ffn_down.weight", "blk.1.attn_q.weight", "blk.1.ffn_down.weight"]);
    expect(written.alpha).toBe(8);
    const reader = await GgufReader.open(path);
    try {
      const [inputs] = reader.tensor("blk.0.ffn_down.weight.lora_a").dims as [number, number];
      const a = await reader.readTensor("blk.0.ffn_down.weight.lora_a");
      const b = await reader.readTensor("blk.0.ffn_down.weight.lora_b");
      expect(Math.max(...a.map(Math.abs))).toBeLessThanOrEqual(1 / Math.sqrt(inputs));
      expect(Math.max(...a.map(Math.abs))).toBeGreaterThan(0.5 / Math.sqrt(inputs));
      expect(b.every((value) => value === 0)).toBe(true);
    } finally {
      await reader.close();
    }
    const policy = await Policy.load({ modelPath, loraPath: path, backends: ["cpu"] });
    try {
      expect(policy.trainableVariables).toHaveLength(8);
    } finally {
      policy.dispose();
    }
  });

  it("is reproducible from its seed, and refuses a target the model lacks", async () => {
    const first = join(folder, "first.gguf");
    const second = join(folder, "second.gguf");
    await createTrainableAdapter({ modelPath, path: first, rank: 2, seed: 1, targets: ["attn_v"] });
    await createTrainableAdapter({ modelPath, path: second, rank: 2, seed: 1, targets: ["attn_v"] });
    const [left, right] = await Promise.all([first, second].map(async (path) => {
      const reader = await GgufReader.open(path);
      try {
        return await reader.readTensor("blk.1.attn_v.weight.lora_a");
      } finally {
        await reader.close();
      }
    }));
    expect(Array.from(left!)).toEqual(Array.from(right!));
    // The tiny model ties its output projection to the embedding: there is no output.weight to adapt.
    await expect(createTrainableAdapter({ modelPath, path: join(folder, "output.gguf"), targets: ["output"] })).rejects.toThrow(InvalidInputError);
  });
});
