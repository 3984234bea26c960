import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { InvalidInputError } from "../../../src/core/errors/index.js";
import { InvalidModelFileError } from "../../../src/inference/errors/index.js";
import { GgufReader } from "../../../src/gguf/gguf-reader.js";
import { createRandomModel, type CreateRandomModelOptions } from "../../../src/inference/model-files/create-random-model.js";
import { GgmlMemoryError } from "../../../src/training/ggml/errors/index.js";
import { GgmlPolicy } from "../../../src/training/ggml/ggml-policy.js";
import { NativeGgmlPolicy } from "../../../src/inference/native/native-ggml-policy.js";
import { readPolicyConfiguration } from "../../../src/training/tfjs/policy/read-policy-configuration.js";
import { addRopeFrequencies } from "../helpers/add-rope-frequencies.js";
import { writeTestAdapter } from "../helpers/write-test-adapter.js";
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

// The engine's samples are scored on both CPU paths: "auto" (the AVX-512 kernels where this CPU has them) and "portable" (ggml's own operations).
const CPU_KERNELS = ["auto", "portable"] as const;

async function agreementWithEngine(modelPath: string, policyPath = modelPath, maxChunkTokens = 1024) {
  const samples = await sampleOnEngine(modelPath, PROMPTS, 80);
  const maxAbsDiff = { auto: Number.NaN, portable: Number.NaN };
  for (const cpuKernels of CPU_KERNELS) {
    const policy = await GgmlPolicy.load({ modelPath: policyPath, maxChunkTokens, cpuKernels });
    try {
      maxAbsDiff[cpuKernels] = maxAbsDifference(samples, await policy.logprobsBatch(samples));
    } finally {
      await policy.dispose();
    }
  }
  return {
    maxAbsDiff,
    tokens: samples.reduce((sum, sample) => sum + sample.completionTokenIds.length, 0),
    maxPosition: Math.max(...samples.map((sample) => sample.promptTokenIds.length + sample.completionTokenIds.length - 1)),
  };
}

describe("GgmlPolicy logprobs against the engine (f32, exact mode)", () => {
  it.each([
    ["llama with grouped-query attention (small: 4 heads, 2 KV heads)", "small-llama", { preset: "small", architecture: "llama" }],
    ["qwen2 (NEOX rope, q/k/v biases)", "tiny-qwen2", { preset: "tiny", architecture: "qwen2" }],
    ["llama with a separate output weight", "tiny-llama-untied", { preset: "tiny", architecture: "llama", untiedOutput: true }],
  ] as const)("agree within 1e-5 for %s, up to the end of the context, on both CPU paths", async (_, fileName, options) => {
    const agreement = await agreementWithEngine(await model(fileName, options));
    expect(agreement.tokens).toBeGreaterThan(100);
    expect(agreement.maxPosition).toBe(255);
    for (const cpuKernels of CPU_KERNELS) expect(agreement.maxAbsDiff[cpuKernels], cpuKernels).toBeLessThanOrEqual(1e-5);
  });

  it("applies rope_freqs as Llama 3 files have it", async () => {
    const basePath = await model("rope-base", { preset: "tiny", architecture: "llama" });
    const ropePath = join(folder, "rope-freqs.gguf");
    await addRopeFrequencies(basePath, ropePath, Float32Array.from({ length: 8 }, (_, pair) => 1 + 3 * pair));
    const agreement = await agreementWithEngine(ropePath);
    // Without the factors the policy is far off, so the check above is not vacuous.
    const without = await agreementWithEngine(ropePath, basePath);
    for (const cpuKernels of CPU_KERNELS) {
      expect(agreement.maxAbsDiff[cpuKernels], cpuKernels).toBeLessThanOrEqual(1e-5);
      expect(without.maxAbsDiff[cpuKernels], cpuKernels).toBeGreaterThan(1e-2);
    }
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

describe("GgmlPolicy shares a prompt between the completions packed after it", () => {
  // Three completions of one prompt (one of a single token), then another prompt: as an RL group arrives.
  const SHARED = [
    { promptTokenIds: [1, 2, 3, 4, 5], completionTokenIds: [6, 7, 8], temperature: 1 },
    { promptTokenIds: [1, 2, 3, 4, 5], completionTokenIds: [9], temperature: 0.7 },
    { promptTokenIds: [1, 2, 3, 4, 5], completionTokenIds: [10, 11, 12, 13], temperature: 1.3 },
    { promptTokenIds: [20, 21], completionTokenIds: [22, 23], temperature: 1 },
  ];
  const TARGETS = SHARED.reduce((sum, sequence) => sum + sequence.completionTokenIds.length, 0);
  const weightsOf = (firstTarget: number, count: number) => Float32Array.from({ length: count }, (_, index) => Math.sin(1 + 3 * (firstTarget + index)));

  async function outputs(policy: GgmlPolicy) {
    policy.native.clearGradients();
    const flat = await policy.accumulateGradients(SHARED, { entropy: true }, ({ logprobs, firstTarget }) => ({
      logprobs: weightsOf(firstTarget, logprobs.length),
      entropy: weightsOf(firstTarget + TARGETS, logprobs.length),
    }));
    const gradients = policy.tensors.filter((tensor) => tensor.trainable).map((tensor) => policy.native.readTensor(tensor.name, "gradient"));
    return { logprobs: flat.logprobs, entropy: flat.entropy!, gradients, scored: await policy.logprobsBatch(SHARED) };
  }

  it("gives the logprobs, entropies and gradients of the sequences packed apart", async () => {
    const modelPath = await model("shared-prompt", { preset: "tiny", architecture: "qwen2" });
    const shared = await GgmlPolicy.load({ modelPath, trainable: true });
    const apart = await GgmlPolicy.load({ modelPath, trainable: true, maxChunkTokens: 1 });
    try {
      const [together, alone] = [await outputs(shared), await outputs(apart)];
      together.logprobs.forEach((value, index) => expect(Math.abs(value - alone.logprobs[index]!)).toBeLessThan(1e-6));
      together.entropy.forEach((value, index) => expect(Math.abs(value - alone.entropy[index]!)).toBeLessThan(1e-6));
      together.scored.flatMap((values) => [...values]).forEach((value, index) => expect(Math.abs(value - alone.logprobs[index]!)).toBeLessThan(1e-6));
      together.gradients.forEach((gradient, tensor) => {
        const reference = alone.gradients[tensor]!;
        const scale = Math.max(...reference.map(Math.abs));
        gradient.forEach((value, index) => expect(Math.abs(value - reference[index]!)).toBeLessThanOrEqual(1e-5 * scale));
      });
    } finally {
      await shared.dispose();
      await apart.dispose();
    }
  });

  it("refuses a chunk whose sequence continues a later one, before ggml sees it", async () => {
    const policy = await GgmlPolicy.load({ modelPath: await model("shared-refuse", { preset: "tiny", architecture: "llama" }) });
    try {
      const chunk = {
        tokens: Int32Array.from([1, 2, 3]),
        sequenceLengths: Int32Array.from([2, 1]),
        targetRows: Int32Array.from([1, 2]),
        targetTokens: Int32Array.from([3, 4]),
        temperatures: Float32Array.from([1, 1]),
      };
      await expect(policy.native.forward({ ...chunk, sequenceParents: Int32Array.from([1, -1]) }, { entropy: false, gradients: false })).rejects.toThrow(/sequenceParents\[0\]/);
      await expect(policy.native.forward({ ...chunk, sequenceParents: Int32Array.from([-1]) }, { entropy: false, gradients: false })).rejects.toThrow(/one per sequence/);
      expect((await policy.native.forward({ ...chunk, sequenceParents: Int32Array.from([-1, 0]) }, { entropy: false, gradients: false })).logprobs).toHaveLength(2);
    } finally {
      await policy.dispose();
    }
  });
});

describe("GgmlPolicy refuses what ggml must not see", () => {
  it("names cpuKernels when it is none of \"auto\", \"generic\" and \"portable\", in the options and in the addon", async () => {
    const modelPath = await model("refuse-kernels", { preset: "tiny", architecture: "llama" });
    await expect(GgmlPolicy.load({ modelPath, cpuKernels: "fast" as "auto" })).rejects.toThrow(InvalidInputError);
    const reader = await GgufReader.open(modelPath);
    const { architecture: _architecture, ...shape } = readPolicyConfiguration(reader);
    await reader.close();
    const options = { ...shape, modelPath, trainable: false, threads: 1 };
    await expect(NativeGgmlPolicy.load({ ...options, cpuKernels: "fast" as "auto" })).rejects.toThrow(/cpuKernels: expected "auto", "generic" or "portable"/);
    for (const cpuKernels of ["generic", "portable"] as const) {
      const { policy } = await NativeGgmlPolicy.load({ ...options, cpuKernels });
      expect(policy?.cpuKernels).toBe(cpuKernels);
      await policy?.dispose();
    }
  });

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

describe("GgmlPolicy memory", () => {
  it("refuses a model over the memory limit before loading it, naming the figure and LoRA", async () => {
    const modelPath = await model("memory-model", { preset: "tiny", architecture: "llama" });
    const refusal = GgmlPolicy.load({ modelPath, trainable: true, memoryLimitBytes: 1 << 20 });
    await expect(refusal).rejects.toThrow(GgmlMemoryError);
    await expect(refusal).rejects.toThrow(/needs \d+\.\d\d GiB, over the ggml trainer's limit of 0\.00 GiB; train a LoRA/);
  });

  it("refuses a chunk whose compute buffer would pass the limit, before ggml allocates it, and names maxChunkTokens", async () => {
    const modelPath = await model("memory-chunk", { preset: "tiny", architecture: "llama" });
    const roomy = await GgmlPolicy.load({ modelPath, trainable: true });
    const long = { promptTokenIds: Array.from({ length: 200 }, (_, index) => index % 250), completionTokenIds: [5, 6], temperature: 1 };
    const short = { promptTokenIds: [1, 2], completionTokenIds: [5, 6], temperature: 1 };
    const chunkOf = (sequence: typeof long) => ({
      tokens: Int32Array.from([...sequence.promptTokenIds, sequence.completionTokenIds[0]!]),
      sequenceLengths: Int32Array.of(sequence.promptTokenIds.length + 1),
      targetRows: Int32Array.of(sequence.promptTokenIds.length - 1, sequence.promptTokenIds.length),
      targetTokens: Int32Array.from(sequence.completionTokenIds),
      temperatures: Float32Array.of(1, 1),
    });
    const longBytes = await roomy.native.estimate(chunkOf(long), { entropy: true, gradients: true });
    const shortBytes = await roomy.native.estimate(chunkOf(short), { entropy: true, gradients: true });
    expect(longBytes).toBeGreaterThan(5 * shortBytes);
    await roomy.dispose();
    // Room for the f32 model with its gradients and moments and the short chunk's graph, not the long one's.
    const reader = await GgufReader.open(modelPath);
    const modelBytes = reader.tensors.reduce((sum, tensor) => sum + 16 * tensor.elementCount, 0);
    await reader.close();
    const tight = await GgmlPolicy.load({ modelPath, trainable: true, memoryLimitBytes: modelBytes + Math.round((longBytes + shortBytes) / 2) });
    try {
      const train = (sequence: typeof long) =>
        tight.accumulateGradients([sequence], { entropy: true }, ({ logprobs }) => ({ logprobs: new Float32Array(logprobs.length), entropy: new Float32Array(logprobs.length) }));
      await expect(train(short)).resolves.toMatchObject({ logprobs: expect.any(Float32Array) as Float32Array });
      await expect(train(long)).rejects.toThrow(GgmlMemoryError);
      await expect(train(long)).rejects.toThrow(/training pass over 201 packed tokens .* smaller maxChunkTokens \(now 128/);
    } finally {
      await tight.dispose();
    }
  });
});

describe("GgmlPolicy refuses files it cannot train, before ggml sees them", () => {
  it("full-weight training of a quantised model names LoRA as the fix; scoring it is fine", async () => {
    const modelPath = await model("refuse-q8", { preset: "tiny", architecture: "llama", weightType: "q8_0" });
    const refusal = GgmlPolicy.load({ modelPath, trainable: true });
    await expect(refusal).rejects.toThrow(InvalidModelFileError);
    await expect(refusal).rejects.toThrow(/refuse-q8\.gguf: token_embd\.weight: is q8_0; full-weight training needs an f32 model: train a LoRA/);
    const scoring = await GgmlPolicy.load({ modelPath });
    await expect(scoring.logprobsBatch([{ promptTokenIds: [1, 2], completionTokenIds: [3], temperature: 1 }])).resolves.toHaveLength(1);
    await scoring.dispose();
  });

  it("an adapter made for another model", async () => {
    const small = await model("refuse-small", { preset: "small", architecture: "llama" });
    const tiny = await model("refuse-tiny", { preset: "tiny", architecture: "llama" });
    const loraPath = join(folder, "small-adapter.gguf");
    await writeTestAdapter({ path: loraPath, modelPath: small, targets: ["blk.0.attn_q.weight"], rank: 2, alpha: 2, seed: 1 });
    await expect(GgmlPolicy.load({ modelPath: tiny, loraPath, trainable: true })).rejects.toThrow(/small-adapter\.gguf: blk\.0\.attn_q\.weight\.lora_a: .*use the adapter with the model it was made for/);
  });
});
