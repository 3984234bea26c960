import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { GenerationRequest } from "../../../src/core/inference-client.js";
import { DEFAULT_SAMPLER } from "../../../src/core/schemas/sampler-settings.js";
import { LlamaInferenceClient } from "../../../src/inference/llama/llama-inference-client.js";
import { loadLlama } from "../../../src/inference/llama/load-llama.js";
import { createRandomModel } from "../../../src/inference/model-files/create-random-model.js";
import { logSumExp, referenceDistribution } from "../../helpers/reference-distribution.js";

const request = (content: string, seed: number, overrides: Partial<GenerationRequest["sampler"]> = {}): GenerationRequest => ({
  messages: [{ role: "user", content }],
  sampler: { ...DEFAULT_SAMPLER, maxTokens: 24, seed, ...overrides },
  constraint: null,
});

describe("LlamaInferenceClient on a project-made model", () => {
  let folder: string;
  let modelPath: string;
  let client: LlamaInferenceClient;

  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), "selfplay-llama-"));
    modelPath = (await createRandomModel({ path: join(folder, "tiny.gguf"), preset: "tiny", architecture: "llama", seed: 1 })).path;
    client = await LlamaInferenceClient.create({ modelPath, sequences: 4 });
  });

  afterAll(async () => {
    await client.dispose();
  });

  it("records prompt tokens of the plain template, and one logprob per sampled token", async () => {
    const [output] = await client.generate([request("2+3=", 1)]);
    expect(client.promptFormat).toBe("plain");
    const promptBytes = [...Buffer.from("user: 2+3=\nassistant:")].map((byte) => byte + 3);
    expect(Array.from(output!.promptTokenIds).slice(-promptBytes.length)).toEqual(promptBytes);
    expect(output!.completionTokenIds.length).toBeGreaterThan(0);
    expect(output!.completionLogprobs).toHaveLength(output!.completionTokenIds.length);
    for (const logprob of output!.completionLogprobs) expect(logprob).toBeLessThanOrEqual(0);
    expect(["stop", "length"]).toContain(output!.finishReason);
    expect(output!.policyVersion).toBe(0);
  });

  it("gives the same tokens and logprobs for the same seed, whether alone or among parallel sequences", async () => {
    const alone = await client.generate([request("hello", 42)]);
    const batch = await client.generate([request("other", 7), request("hello", 42), request("hello", 43), request("x", 9)]);
    expect(Array.from(batch[1]!.completionTokenIds)).toEqual(Array.from(alone[0]!.completionTokenIds));
    batch[1]!.completionLogprobs.forEach((logprob, index) =>
      expect(Math.abs(logprob - (alone[0]!.completionLogprobs[index] as number))).toBeLessThan(1e-5),
    );
    expect(Array.from(batch[2]!.completionTokenIds)).not.toEqual(Array.from(batch[1]!.completionTokenIds));
  });

  it("records the log of the full temperature-scaled distribution at every sampled token", async () => {
    const temperature = 0.7;
    const [output] = await client.generate([request("abc", 5, { temperature, maxTokens: 12 })]);
    const llama = await loadLlama("cpu");
    const model = await llama.loadModel({ modelPath });
    const context = await model.createContext({
      contextSize: 256, threads: 1, flashAttention: false, experimentalKvCacheKeyType: "F32", experimentalKvCacheValueType: "F32",
    });
    try {
      const sequence = context.getSequence();
      const prefix = Array.from(output!.promptTokenIds);
      let maxDifference = 0;
      for (const [index, token] of Array.from(output!.completionTokenIds).entries()) {
        const probabilities = await referenceDistribution(sequence, prefix);
        // Rescale the temperature-1 distribution to temperature T: log p_T(x) = log p_1(x)/T − logsumexp(log p_1/T).
        const scaled = [...probabilities.values()].map((probability) => Math.log(probability) / temperature);
        const expected = Math.log(probabilities.get(token) as number) / temperature - logSumExp(scaled);
        maxDifference = Math.max(maxDifference, Math.abs(expected - (output!.completionLogprobs[index] as number)));
        prefix.push(token);
      }
      expect(maxDifference).toBeLessThan(1e-5);
    } finally {
      await context.dispose();
      await model.dispose();
    }
  });

  it("stops at maxTokens with finishReason length, and at a stop string", async () => {
    const [short] = await client.generate([request("count", 3, { maxTokens: 3 })]);
    expect(short!.completionTokenIds).toHaveLength(3);
    expect(short!.finishReason).toBe("length");
    const [free] = await client.generate([request("count", 4, { maxTokens: 40 })]);
    const characters = [...free!.text];
    const stop = characters.find((character, index) => index >= 2 && character.trim() !== "" && !characters.slice(0, index).includes(character));
    expect(stop).toBeDefined();
    const [stopped] = await client.generate([request("count", 4, { maxTokens: 40, stop: [stop!] })]);
    expect(stopped!.finishReason).toBe("stop");
    expect(stopped!.text).toBe(free!.text.slice(0, free!.text.indexOf(stop!)));
  });

  it("refuses a prompt longer than the context instead of truncating it", async () => {
    await expect(client.generate([request("x".repeat(400), 1)])).rejects.toThrow(/shorter than the context of 256 tokens/);
  });

  it("serves a new policy version after swapWeights", async () => {
    const other = (await createRandomModel({ path: join(folder, "tiny-2.gguf"), preset: "tiny", architecture: "llama", seed: 2 })).path;
    const swapped = await LlamaInferenceClient.create({ modelPath, sequences: 1 });
    try {
      const [before] = await swapped.generate([request("hi", 11)]);
      await swapped.swapWeights({ policyVersion: 1, modelPath: other });
      const [after] = await swapped.generate([request("hi", 11)]);
      expect(swapped.policyVersion).toBe(1);
      expect(after!.policyVersion).toBe(1);
      expect(Array.from(after!.completionLogprobs)).not.toEqual(Array.from(before!.completionLogprobs));
    } finally {
      await swapped.dispose();
    }
  });
});
