import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AdapterMismatchError } from "../../../../src/inference/errors/index.js";
import { GgufReader } from "../../../../src/gguf/gguf-reader.js";
import { writeGguf, type GgufTensorInput } from "../../../../src/gguf/write-gguf.js";
import { loadLlama } from "../../../../src/inference/llama/load-llama.js";
import { createRandomModel } from "../../../../src/inference/model-files/create-random-model.js";
import { Policy } from "../../../../src/training/tfjs/policy/policy.js";
import { writeTestAdapter } from "../../helpers/write-test-adapter.js";

const TARGETS = ["blk.0.attn_q.weight", "blk.0.attn_v.weight", "blk.1.ffn_down.weight", "output.weight"];
const RANK = 4;
const ALPHA = 8;

let folder: string;
let modelPath: string;
let adapterPath: string;
let handMergedPath: string;

/** W + (alpha / rank)·B·A in float64, written as f32: the adapter's meaning, computed without any trainers/ code. */
async function mergeByHand(outputPath: string): Promise<void> {
  const model = await GgufReader.open(modelPath);
  const adapter = await GgufReader.open(adapterPath);
  const tensors: GgufTensorInput[] = [];
  for (const tensor of model.tensors) {
    if (!TARGETS.includes(tensor.name)) {
      tensors.push({ name: tensor.name, dims: tensor.dims, type: tensor.type, bytes: await model.readTensorBytes(tensor.name) });
      continue;
    }
    const [inputs, outputs] = tensor.dims as [number, number];
    const weight = await model.readTensor(tensor.name);
    const a = await adapter.readTensor(`${tensor.name}.lora_a`);
    const b = await adapter.readTensor(`${tensor.name}.lora_b`);
    const merged = new Float32Array(weight.length);
    for (let row = 0; row < outputs; row++) {
      for (let column = 0; column < inputs; column++) {
        let sum = 0;
        for (let inner = 0; inner < RANK; inner++) sum += b[row * RANK + inner]! * a[inner * inputs + column]!;
        merged[row * inputs + column] = weight[row * inputs + column]! + (ALPHA / RANK) * sum;
      }
    }
    tensors.push({ name: tensor.name, dims: tensor.dims, type: "f32", values: merged });
  }
  await writeGguf(outputPath, { metadata: model.metadata, tensors });
  await model.close();
  await adapter.close();
}

const SEQUENCES = [
  { promptTokenIds: [1, 120, 111, 108], completionTokenIds: [100, 104, 107, 200, 3, 40, 41, 99], temperature: 1 },
  { promptTokenIds: [1, 90], completionTokenIds: Array.from({ length: 60 }, (_, index) => 3 + ((index * 37) % 250)), temperature: 0.7 },
];

beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), "selfplay-lora-"));
  modelPath = (await createRandomModel({ path: join(folder, "base.gguf"), preset: "tiny", architecture: "llama", seed: 4, untiedOutput: true, initialisationScale: 0.1 })).path;
  adapterPath = join(folder, "adapter.gguf");
  await writeTestAdapter({ path: adapterPath, modelPath, targets: TARGETS, rank: RANK, alpha: ALPHA, seed: 9 });
  handMergedPath = join(folder, "merged-by-hand.gguf");
  await mergeByHand(handMergedPath);
});
afterAll(async () => {
  await rm(folder, { recursive: true, force: true });
});

describe("a policy with a LoRA adapter", () => {
  it("scores like the model merged by hand, W + (alpha/r)·B·A, and unlike the base", async () => {
    const adapted = await Policy.load({ modelPath, loraPath: adapterPath });
    const merged = await Policy.load({ modelPath: handMergedPath });
    const base = await Policy.load({ modelPath });
    try {
      const [withAdapter, byHand, without] = await Promise.all([adapted, merged, base].map((policy) => policy.logprobsBatch(SEQUENCES)));
      const largestDifference = (left: Float64Array[], right: Float64Array[]) =>
        Math.max(...left.flatMap((logprobs, index) => Array.from(logprobs, (value, position) => Math.abs(value - right[index]![position]!))));
      expect(largestDifference(withAdapter!, byHand!)).toBeLessThan(1e-5);
      expect(largestDifference(withAdapter!, without!)).toBeGreaterThan(1e-2);
    } finally {
      for (const policy of [adapted, merged, base]) policy.dispose();
    }
  });

  it("trains only the adapter's factors, held as Aᵀ [in, r] and Bᵀ [r, out]", async () => {
    const policy = await Policy.load({ modelPath, loraPath: adapterPath });
    try {
      expect(policy.trainableVariables.map((variable) => variable.name.replace(/^policy-\d+\//, "")).sort()).toEqual(
        TARGETS.flatMap((target) => [`${target}.lora_a`, `${target}.lora_b`]).sort(),
      );
      expect(policy.variables.get("blk.1.ffn_down.weight.lora_a")?.shape).toEqual([192, RANK]);
      expect(policy.variables.get("blk.1.ffn_down.weight.lora_b")?.shape).toEqual([RANK, 64]);
      expect(policy.variables.get("blk.1.ffn_down.weight")?.trainable).toBe(false);
    } finally {
      policy.dispose();
    }
  });

  it("agrees with llama.cpp applying the same adapter file itself", async () => {
    const llama = await loadLlama("cpu");
    const model = await llama.loadModel({ modelPath });
    const context = await model.createContext({
      contextSize: 256, threads: 1, flashAttention: false, experimentalKvCacheKeyType: "F32", experimentalKvCacheValueType: "F32",
      lora: { adapters: [{ filePath: adapterPath }] },
    });
    const prompt = model.tokenize("user: tell me\nassistant:");
    const tokens: number[] = [];
    const engineLogprobs: number[] = [];
    try {
      const evaluation = context.getSequence().evaluateWithMetadata(prompt, { confidence: true }, { temperature: 1, topK: 0, topP: 1, minP: 0, seed: 5, yieldEogToken: true });
      for await (const { token, confidence } of evaluation) {
        tokens.push(token);
        engineLogprobs.push(Math.log(confidence));
        if (tokens.length === 120 || model.isEogToken(token)) break;
      }
    } finally {
      await context.dispose();
      await model.dispose();
    }
    expect(tokens.length).toBeGreaterThan(20);
    const largestDifference = async (policy: Policy) => {
      try {
        const logprobs = await policy.logprobs(prompt, tokens, 1);
        return Math.max(...Array.from(logprobs, (value, index) => Math.abs(value - engineLogprobs[index]!)));
      } finally {
        policy.dispose();
      }
    };
    expect(await largestDifference(await Policy.load({ modelPath, loraPath: adapterPath }))).toBeLessThan(1e-4);
    // The engine did apply the adapter: the base model is far from what it sampled with.
    expect(await largestDifference(await Policy.load({ modelPath }))).toBeGreaterThan(1e-2);
  });
});

describe("Policy.load with an adapter", () => {
  it("refuses one made for another model, as the engine's client does", async () => {
    const otherPath = (await createRandomModel({ path: join(folder, "other.gguf"), preset: "small", architecture: "llama", seed: 1 })).path;
    const otherAdapter = join(folder, "other-adapter.gguf");
    await writeTestAdapter({ path: otherAdapter, modelPath: otherPath, targets: ["blk.0.attn_q.weight"], rank: 2, alpha: 2, seed: 1 });
    await expect(Policy.load({ modelPath, loraPath: otherAdapter })).rejects.toBeInstanceOf(AdapterMismatchError);
  });
});
