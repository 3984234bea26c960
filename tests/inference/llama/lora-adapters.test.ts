import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { AdapterMismatchError } from "../../../src/inference/errors/index.js";
import { InvalidInputError } from "../../../src/core/errors/index.js";
import type { GenerationRequest } from "../../../src/core/inference-client.js";
import { DEFAULT_SAMPLER } from "../../../src/core/schemas/sampler-settings.js";
import { LlamaInferenceClient } from "../../../src/inference/llama/llama-inference-client.js";
import { createRandomLoraAdapter } from "../../../src/inference/model-files/create-random-lora-adapter.js";
import { createRandomModel } from "../../../src/inference/model-files/create-random-model.js";
import { mergeLoraAdapter } from "../../../src/inference/model-files/merge-lora-adapter.js";

const requests = (seed: number): GenerationRequest[] =>
  ["2+3=", "hello", "abc", "zz"].map((content, index) => ({
    messages: [{ role: "user", content }],
    sampler: { ...DEFAULT_SAMPLER, temperature: 0.9, maxTokens: 24, seed: seed + index },
    constraint: null,
  }));

describe("LoRA adapters on the real engine", () => {
  let folder: string;
  let basePath: string;

  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), "selfplay-lora-"));
    basePath = (await createRandomModel({ path: join(folder, "base.gguf"), preset: "tiny", architecture: "llama", seed: 4 })).path;
  });

  it.each(["llama", "qwen2"] as const)("gives the logprobs of the same weights merged into a full model (%s)", async (architecture) => {
    const base = (await createRandomModel({ path: join(folder, `base-${architecture}.gguf`), preset: "tiny", architecture, seed: 4 })).path;
    const adapter = (await createRandomLoraAdapter({ baseModelPath: base, path: join(folder, `adapter-${architecture}.gguf`), rank: 4, alpha: 8, seed: 1 })).path;
    const merged = (await mergeLoraAdapter({ baseModelPath: base, adapterPath: adapter, out: join(folder, `merged-${architecture}.gguf`) })).path;
    const withAdapter = await LlamaInferenceClient.create({ modelPath: base, loraPath: adapter });
    const mergedClient = await LlamaInferenceClient.create({ modelPath: merged });
    const plain = await LlamaInferenceClient.create({ modelPath: base });
    try {
      const adapted = await withAdapter.generate(requests(10));
      const reference = await mergedClient.generate(requests(10));
      const unadapted = await plain.generate(requests(10));
      let maxDifference = 0;
      adapted.forEach((output, index) => {
        expect(Array.from(output.completionTokenIds)).toEqual(Array.from(reference[index]!.completionTokenIds));
        output.completionLogprobs.forEach((logprob, position) => {
          maxDifference = Math.max(maxDifference, Math.abs(logprob - (reference[index]!.completionLogprobs[position] as number)));
        });
      });
      expect(maxDifference).toBeLessThan(1e-5);
      // The adapter does change the model: without it the same seeds give other logprobs.
      expect(adapted.some((output, index) => Math.abs((output.completionLogprobs[0] as number) - (unadapted[index]!.completionLogprobs[0] as number)) > 1e-3)).toBe(true);
    } finally {
      await Promise.all([withAdapter.dispose(), mergedClient.dispose(), plain.dispose()]);
    }
  });

  it("swaps adapter versions over the loaded base and refuses a reused adapter path", async () => {
    const first = (await createRandomLoraAdapter({ baseModelPath: basePath, path: join(folder, "v1.gguf"), rank: 2, seed: 1 })).path;
    const second = (await createRandomLoraAdapter({ baseModelPath: basePath, path: join(folder, "v2.gguf"), rank: 2, seed: 2 })).path;
    const merged = (await mergeLoraAdapter({ baseModelPath: basePath, adapterPath: second, out: join(folder, "merged-v2.gguf") })).path;
    const client = await LlamaInferenceClient.create({ modelPath: basePath, loraPath: first });
    const reference = await LlamaInferenceClient.create({ modelPath: merged });
    try {
      await client.swapWeights({ policyVersion: 1, loraPath: second });
      const [swapped] = await client.generate(requests(3).slice(0, 1));
      const [expected] = await reference.generate(requests(3).slice(0, 1));
      expect(swapped!.policyVersion).toBe(1);
      expect(Array.from(swapped!.completionTokenIds)).toEqual(Array.from(expected!.completionTokenIds));
      await expect(client.swapWeights({ policyVersion: 2, loraPath: first })).rejects.toThrowError(InvalidInputError);
      expect(client.policyVersion).toBe(1);
    } finally {
      await Promise.all([client.dispose(), reference.dispose()]);
    }
  });

  it("refuses an adapter made for another model before llama.cpp sees it", async () => {
    const other = (await createRandomModel({ path: join(folder, "small.gguf"), preset: "small", architecture: "llama", seed: 4 })).path;
    const adapter = (await createRandomLoraAdapter({ baseModelPath: other, path: join(folder, "for-small.gguf"), rank: 2, seed: 1 })).path;
    await expect(LlamaInferenceClient.create({ modelPath: basePath, loraPath: adapter })).rejects.toThrowError(AdapterMismatchError);
  });
});
