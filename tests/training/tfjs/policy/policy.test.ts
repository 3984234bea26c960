import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as tf from "@tensorflow/tfjs";
import { WasmOutOfMemoryError } from "../../../../src/training/tfjs/errors/index.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRandomModel, type CreateRandomModelOptions } from "../../../../src/inference/model-files/create-random-model.js";
import { Policy } from "../../../../src/training/tfjs/policy/policy.js";
import { addRopeFrequencies } from "../../helpers/add-rope-frequencies.js";
import { maxAbsDifference, sampleOnEngine } from "../../helpers/sample-on-engine.js";

let folder: string;
beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), "selfplay-policy-"));
});
afterAll(async () => {
  await rm(folder, { recursive: true, force: true });
});

// Weights 5× the default scale make attention sharp, so a wrong rope, mask or head grouping shows up in the logprobs.
const model = async (name: string, options: Omit<CreateRandomModelOptions, "path" | "seed">) =>
  (await createRandomModel({ path: join(folder, `${name}.gguf`), seed: 7, initialisationScale: 0.1, ...options })).path;

// Two completions from short prompts, and two from prompts so long that they run into the end of the 256-token context.
const LONG_PROMPT = "The quick brown fox jumps over the lazy dog; 0123456789. ".repeat(4).slice(0, 210);
const PROMPTS = ["hi", "the cat", LONG_PROMPT, LONG_PROMPT.toUpperCase()];

async function agreementWithEngine(modelPath: string, policyPath = modelPath): Promise<{ maxAbsDiff: number; tokens: number; maxPosition: number }> {
  const samples = await sampleOnEngine(modelPath, PROMPTS, 80);
  const policy = await Policy.load({ modelPath: policyPath });
  try {
    const logprobs = await policy.logprobsBatch(samples);
    return {
      maxAbsDiff: maxAbsDifference(samples, logprobs),
      tokens: samples.reduce((sum, sample) => sum + sample.completionTokenIds.length, 0),
      maxPosition: Math.max(...samples.map((sample) => sample.promptTokenIds.length + sample.completionTokenIds.length - 1)),
    };
  } finally {
    policy.dispose();
  }
}

describe("Policy logprobs against the engine (f32, exact mode)", () => {
  it.each([
    ["llama with grouped-query attention (small: 4 heads, 2 KV heads)", "small-llama", { preset: "small", architecture: "llama" }],
    ["qwen2 (NEOX rope, q/k/v biases)", "tiny-qwen2", { preset: "tiny", architecture: "qwen2" }],
    ["llama with a separate output weight", "tiny-llama-untied", { preset: "tiny", architecture: "llama", untiedOutput: true }],
  ] as const)("agree within 1e-4 for %s, up to the end of the context", async (_, fileName, options) => {
    const agreement = await agreementWithEngine(await model(fileName, options));
    expect(agreement.tokens).toBeGreaterThan(100);
    expect(agreement.maxPosition).toBe(255);
    expect(agreement.maxAbsDiff).toBeLessThan(1e-4);
  });

  it("applies rope_freqs as Llama 3 files have it, and the engine does too", async () => {
    const basePath = await model("rope-base", { preset: "tiny", architecture: "llama" });
    const ropePath = join(folder, "rope-freqs.gguf");
    await addRopeFrequencies(basePath, ropePath, Float32Array.from({ length: 8 }, (_, pair) => 1 + 3 * pair));
    expect((await agreementWithEngine(ropePath)).maxAbsDiff).toBeLessThan(1e-4);
    // Without the factors the policy is far off, so the check above is not vacuous.
    expect((await agreementWithEngine(ropePath, basePath)).maxAbsDiff).toBeGreaterThan(1e-2);
  });
});

describe("Policy", () => {
  let policy: Policy;
  beforeAll(async () => {
    policy = await Policy.load({ modelPath: await model("plain", { preset: "tiny", architecture: "qwen2" }), maxBatchTokens: 64 });
  });
  afterAll(() => policy.dispose());

  it("reports its backend and exposes every weight as a trainable variable", () => {
    expect(["tensorflow", "wasm"]).toContain(policy.backend.backend);
    expect(policy.configuration).toMatchObject({ architecture: "qwen2", ropeType: "neox", embeddingLength: 64, headCount: 4, vocabularySize: 259 });
    expect(policy.variables.get("blk.1.attn_q.bias")?.shape).toEqual([64]);
    // Linear weights are held transposed, [in, out].
    expect(policy.variables.get("blk.0.ffn_down.weight")?.shape).toEqual([192, 64]);
    expect(policy.trainableVariables).toHaveLength(policy.variables.size);
    expect(policy.parameterCount).toBe(259 * 64 + 2 * (2 * 64 + 4 * 64 * 64 + 3 * 64 + 3 * 64 * 192) + 64);
  });

  it("scores a sequence the same alone, padded in a batch, and split across passes", async () => {
    const sequences = [
      { promptTokenIds: [1, 50, 60], completionTokenIds: [70, 80, 90, 100], temperature: 1 },
      { promptTokenIds: [1, 5], completionTokenIds: Array.from({ length: 40 }, (_, index) => 3 + index), temperature: 0.7 },
      { promptTokenIds: [1], completionTokenIds: [], temperature: 1 },
    ];
    const batched = await policy.logprobsBatch(sequences);
    expect(batched.map((logprobs) => logprobs.length)).toEqual([4, 40, 0]);
    const alone = await policy.logprobs(sequences[0]!.promptTokenIds, sequences[0]!.completionTokenIds, 1);
    alone.forEach((logprob, index) => expect(Math.abs(logprob - batched[0]![index]!)).toBeLessThan(1e-6));
    // Temperature scales the logits: at T → the log-softmax of logits / T.
    const hot = await policy.logprobs([1, 50, 60], [70], 2);
    expect(hot[0]).not.toBeCloseTo(alone[0]!, 3);
  });

  it("frees every intermediate tensor when scoring", async () => {
    const before = tf.memory().numTensors;
    await policy.logprobsBatch([{ promptTokenIds: [1, 2, 3], completionTokenIds: [4, 5], temperature: 1 }]);
    expect(tf.memory().numTensors).toBe(before);
  });

  it("refuses, before running it, a forward pass that would exhaust the wasm heap", async () => {
    // Only wasm has the 4 GiB ceiling; the native backend would just allocate.
    if (policy.backend.backend !== "wasm") return;
    const huge = { promptTokenIds: Array.from({ length: 40_000 }, () => 1), completionTokenIds: [5], temperature: 1 };
    await expect(policy.logprobs(huge.promptTokenIds, huge.completionTokenIds, 1)).rejects.toBeInstanceOf(WasmOutOfMemoryError);
    // The refusal came before any allocation: the policy still works.
    expect(await policy.logprobs([1], [5], 1)).toHaveLength(1);
  });

  it("rejects bad token ids and temperatures, naming the field", async () => {
    await expect(policy.logprobs([1], [259], 1)).rejects.toThrow(/sequences\[0\]\.completionTokenIds\[0\]: got 259; expected a token id from 0 to 258/);
    await expect(policy.logprobs([], [5], 1)).rejects.toThrow(/promptTokenIds: got 0; expected at least one token/);
    await expect(policy.logprobs([1], [5], 0)).rejects.toThrow(/temperature: got 0; expected a finite number > 0/);
  });
});
