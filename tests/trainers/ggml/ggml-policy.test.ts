import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { InvalidInputError } from "../../../src/core/errors.js";
import { createRandomModel, type CreateRandomModelOptions } from "../../../src/inference/model-files/create-random-model.js";
import { GgmlPolicy } from "../../../trainers/ggml/ggml-policy.js";
import { addRopeFrequencies } from "../helpers/add-rope-frequencies.js";
import { maxAbsDifference, sampleOnEngine } from "../helpers/sample-on-engine.js";

let folder: string;
beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), "selfplay-ggml-policy-"));
});
afterAll(async () => {
  await rm(folder, { recursive: true, force: true });
});

const model = async (name: string, options: Omit<CreateRandomModelOptions, "path" | "seed">) =>
  (await createRandomModel({ path: join(folder, `${name}.gguf`), seed: 7, initialisationScale: 0.1, ...options })).path;

// Two completions from short prompts, and two from prompts so long that they run into the end of the 256-token context.
const LONG_PROMPT = "The quick brown fox jumps over the lazy dog; 0123456789. ".repeat(4).slice(0, 210);
const PROMPTS = ["hi", "the cat", LONG_PROMPT, LONG_PROMPT.toUpperCase()];

async function agreementWithEngine(modelPath: string, policyPath = modelPath, maxChunkTokens = 1024) {
  const samples = await sampleOnEngine(modelPath, PROMPTS, 80);
  const policy = await GgmlPolicy.load({ modelPath: policyPath, maxChunkTokens });
  try {
    const logprobs = await policy.logprobsBatch(samples);
    return {
      maxAbsDiff: maxAbsDifference(samples, logprobs),
      tokens: samples.reduce((sum, sample) => sum + sample.completionTokenIds.length, 0),
      maxPosition: Math.max(...samples.map((sample) => sample.promptTokenIds.length + sample.completionTokenIds.length - 1)),
    };
  } finally {
    await policy.dispose();
  }
}

describe("GgmlPolicy logprobs against the engine (f32, exact mode)", () => {
  it.each([
    ["llama with grouped-query attention (small: 4 heads, 2 KV heads)", "small-llama", { preset: "small", architecture: "llama" }],
    ["qwen2 (NEOX rope, q/k/v biases)", "tiny-qwen2", { preset: "tiny", architecture: "qwen2" }],
    ["llama with a separate output weight", "tiny-llama-untied", { preset: "tiny", architecture: "llama", untiedOutput: true }],
  ] as const)("agree within 1e-5 for %s, up to the end of the context", async (_, fileName, options) => {
    const agreement = await agreementWithEngine(await model(fileName, options));
    expect(agreement.tokens).toBeGreaterThan(100);
    expect(agreement.maxPosition).toBe(255);
    expect(agreement.maxAbsDiff).toBeLessThanOrEqual(1e-5);
  });

  it("applies rope_freqs as Llama 3 files have it", async () => {
    const basePath = await model("rope-base", { preset: "tiny", architecture: "llama" });
    const ropePath = join(folder, "rope-freqs.gguf");
    await addRopeFrequencies(basePath, ropePath, Float32Array.from({ length: 8 }, (_, pair) => 1 + 3 * pair));
    expect((await agreementWithEngine(ropePath)).maxAbsDiff).toBeLessThanOrEqual(1e-5);
    // Without the factors the policy is far off, so the check above is not vacuous.
    expect((await agreementWithEngine(ropePath, basePath)).maxAbsDiff).toBeGreaterThan(1e-2);
  });

  it("gives the same numbers whether sequences share a packed row or not", async () => {
    const modelPath = await model("packing", { preset: "tiny", architecture: "qwen2" });
    const sequences = [
      { promptTokenIds: [1, 2, 3], completionTokenIds: [4, 5, 6, 7], temperature: 0.7 },
      { promptTokenIds: [9], completionTokenIds: [10, 11], temperature: 1 },
      { promptTokenIds: [12, 13, 14, 15, 16], completionTokenIds: [17], temperature: 1.3 },
    ];
    const packed = await GgmlPolicy.load({ modelPath });
    const apart = await GgmlPolicy.load({ modelPath, maxChunkTokens: 1 });
    try {
      const together = await packed.logprobsBatch(sequences);
      const alone = await apart.logprobsBatch(sequences);
      together.forEach((values, index) => values.forEach((value, position) => expect(Math.abs(value - alone[index]![position]!)).toBeLessThan(1e-6)));
    } finally {
      await packed.dispose();
      await apart.dispose();
    }
  });
});

describe("GgmlPolicy refuses what ggml must not see", () => {
  it("names a bad token id before the native side", async () => {
    const policy = await GgmlPolicy.load({ modelPath: await model("refuse", { preset: "tiny", architecture: "llama" }) });
    try {
      await expect(policy.logprobsBatch([{ promptTokenIds: [1], completionTokenIds: [1 << 20], temperature: 1 }])).rejects.toThrow(InvalidInputError);
      await expect(policy.logprobsBatch([{ promptTokenIds: [], completionTokenIds: [1], temperature: 1 }])).rejects.toThrow(/promptTokenIds/);
    } finally {
      await policy.dispose();
    }
  });
});
